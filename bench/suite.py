"""Wall time of the whole conformance suite: in-process against over stdio, side by side.

    python bench/suite.py [--runs N] [--no-js]

Two pairs, each measured A B A B ... after one warm-up of each, so that a drift in the
machine's speed hits both alike:

- the reference: ``python -m conformance run`` (in-process) against
  ``python -m conformance run --impl 'cmd:python -m conformance serve-reference'`` (the same
  reference behind the JSON-lines stdio protocol; it announces a ``pipeline_depth``, so the
  runner writes each scenario's requests ahead, and the next scenario's once every answer of this
  one has come);
- the reference strictly in turn: the same with ``serve-reference --pipeline-depth 1`` (one
  request, its answer, the next: what an implementation that announces nothing gets);
- the JavaScript example (needs ``node``; skipped without it): ``... run --profile activation
  --profile text`` in-process against ``... --impl 'cmd:node examples/js-scheduler/server.js'``
  with the same profiles (the two it claims; it announces a ``pipeline_depth`` too).

Python's bytecode cache is on, as it is after a pip install, even where the environment sets
PYTHONDONTWRITEBYTECODE (``--no-bytecode-cache`` keeps the variable: then every process compiles
the project's sources again, ~0.25 s of CPU per process here, which the stdio server pays on top).
For each command the script prints its minimum and median wall time, then the stdio /
in-process ratio, pair by pair (min and median) against its goal (at most 1.25x for the reference,
1.5x for the others). Both are whole
processes, start-up included. This is a script, not a test: timing never appears in the
test suite.

Whole-process figures (user, sys, peak memory) for bench/README.md come from timing the
same command lines from outside, A and B alternating, with public tools, e.g.::

    /usr/bin/time -v python -m conformance run
    /usr/bin/time -v python -m conformance run --impl 'cmd:python -m conformance serve-reference'
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOAL = 1.5  # stdio / in-process, wall time of the whole suite (issue 18)
GOALS = {"reference": 1.25}  # issue 28, after the codec moved to msgspec; the other pairs keep GOAL
RUN = [sys.executable, "-m", "conformance", "run"]
JS_PROFILES = ["--profile", "activation", "--profile", "text"]
SERVE = f"cmd:{sys.executable} -m conformance serve-reference"
PAIRS = {  # name: (in-process, over stdio)
    "reference": (RUN, [*RUN, "--impl", SERVE]),
    "reference, strictly in turn": (RUN, [*RUN, "--impl", f"{SERVE} --pipeline-depth 1"]),
    "javascript": ([*RUN, *JS_PROFILES], [*RUN, "--impl", "cmd:node examples/js-scheduler/server.js", *JS_PROFILES]),
}


#: The environment of every timed run. A pip-installed ``pas`` has its modules compiled at install;
#: a machine that sets PYTHONDONTWRITEBYTECODE (this one does) would instead make every process
#: compile them from source again, the stdio server (a second process) paying it twice over.
#: Taken out unless --no-bytecode-cache, so the warm-up writes the .pyc files as usual.
ENV = dict(os.environ)


def wall_time(argv: list[str]) -> float:
    """Seconds one whole run of ``argv`` takes; exits when the suite does not pass."""
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False, env=ENV)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} exited with {done.returncode}: {done.stderr.decode(errors='replace')[-500:]}")
    return elapsed


def _row(name: str, times: list[float]) -> str:
    return f"  {name:20} min {min(times):7.3f}s   median {statistics.median(times):7.3f}s"


def measure(name: str, in_process: list[str], over_stdio: list[str], runs: int) -> float:
    """Time one pair, print it, and return the median stdio / in-process ratio."""
    wall_time(in_process), wall_time(over_stdio)  # warm-up: file caches, .pyc files
    a_times, b_times = [], []
    for _ in range(runs):
        a_times.append(wall_time(in_process))
        b_times.append(wall_time(over_stdio))
    ratios = [b / a for a, b in zip(a_times, b_times)]
    median = statistics.median(ratios)
    print(f"{name}: whole suite, {runs} runs each, alternating (start-up included)")
    print(_row("in-process", a_times))
    print(_row("stdio", b_times))
    goal = GOALS.get(name, GOAL)
    verdict = "met" if median <= goal else "missed"
    print(f"  {'stdio / in-process':20} min {min(ratios):5.2f}x   median {median:5.2f}x   (goal <= {goal}x: {verdict})")
    return median


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="counted runs of each (default: 7)")
    parser.add_argument("--no-js", action="store_true", help="skip the JavaScript example")
    parser.add_argument("--no-bytecode-cache", action="store_true",
                        help="keep PYTHONDONTWRITEBYTECODE if set (every process compiles the sources again)")
    options = parser.parse_args()
    if not options.no_bytecode_cache:
        ENV.pop("PYTHONDONTWRITEBYTECODE", None)
    cache = "off (PYTHONDONTWRITEBYTECODE set)" if ENV.get("PYTHONDONTWRITEBYTECODE") else "on, as after a pip install"
    print(f"bytecode cache: {cache}")
    for name, (in_process, over_stdio) in PAIRS.items():
        if name == "javascript" and (options.no_js or shutil.which("node") is None):
            print("javascript: skipped (--no-js, or no node on PATH)")
            continue
        measure(name, in_process, over_stdio, options.runs)


if __name__ == "__main__":
    main()
