"""Peak memory of ``pas run`` against an implementation that returns a 1 MB text at every run step.

Runs the whole bundled suite in a child ``pas run`` (the in-process fake
tests/fakes/hostile_huge_text.py: every run observation holds a 1 MB text and renamed
plugins, so nearly every scenario fails on a megabyte observation) and prints the peak RSS the child reads from
``resource.getrusage(RUSAGE_SELF)`` as it exits. The goal is under 200 MB: what is kept of an
observation is bounded and the JSON-lines report streams. For comparison, the same run with
the bound switched off (``conformance.suite.runner.bounded`` replaced by the identity) is
measured side by side in its own child. Not a test: run it by hand.

    .venv/bin/python bench/memory.py [--format json|text]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOAL_MB = 200


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", default="json", choices=("json", "text", "junit", "markdown"))
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests" / "fakes"), str(ROOT)])}
    arguments = ["run", "--impl", "python:hostile_huge_text:create", "-f", args.format, "-o", os.devnull, "-q"]
    bounded_mb, code, seconds = _peak("", arguments, env)
    unbounded_mb, _, _ = _peak("import conformance.suite.runner as r; r.bounded = lambda v, **k: v; ", arguments, env)
    verdict = "ok" if bounded_mb < GOAL_MB else "OVER THE GOAL"
    print(f"pas run, 1 MB text per run step, whole suite, -f {args.format}: exit {code}, {seconds:.1f} s")
    print(f"  peak RSS {bounded_mb:.0f} MB (goal < {GOAL_MB} MB: {verdict}); without the bound {unbounded_mb:.0f} MB "
          f"({unbounded_mb / bounded_mb:.1f}x)")
    return 0 if bounded_mb < GOAL_MB and code == 1 else 1


def _peak(prelude: str, arguments: list[str], env: dict[str, str]) -> tuple[float, int, float]:
    """Peak RSS (MB) of one child ``pas run``, its exit status and its wall time (each child measured alone)."""
    code = f"{prelude}import resource, sys; from conformance.cli import main; status = main(sys.argv[1:]); " \
           "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss); sys.exit(status)"
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, *arguments], env=env, cwd=ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    return int(done.stdout.split()[-1]) / 1024, done.returncode, seconds

if __name__ == "__main__":
    sys.exit(main())
