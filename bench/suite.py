"""Wall time of the whole conformance suite: in-process against over stdio, side by side.

    python bench/suite.py [--runs N]

A is ``python -m conformance run`` (the reference, in-process); B is
``python -m conformance run --impl 'cmd:python -m conformance serve-reference'`` (the same
reference behind the JSON-lines stdio protocol). After one warm-up each, A and B run in
turn, A B A B ..., so that a drift in the machine's speed hits both alike; the script
prints each one's minimum and median wall time and the B/A ratio pair by pair. Both are
whole processes, start-up included. This is a script, not a test: timing never appears
in the test suite.

Whole-process figures (user, sys, peak memory) for bench/README.md come from timing the
same two command lines from outside, A and B alternating, with public tools, e.g.::

    /usr/bin/time -v python -m conformance run
    /usr/bin/time -v python -m conformance run --impl 'cmd:python -m conformance serve-reference'
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IN_PROCESS = [sys.executable, "-m", "conformance", "run"]
OVER_STDIO = [*IN_PROCESS, "--impl", f"cmd:{sys.executable} -m conformance serve-reference"]


def wall_time(argv: list[str]) -> float:
    """Seconds one whole run of ``argv`` takes; exits when the suite does not pass."""
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} exited with {done.returncode}: {done.stderr.decode(errors='replace')[-500:]}")
    return elapsed


def _row(name: str, times: list[float]) -> str:
    return f"{name:12} min {min(times):7.3f}s   median {statistics.median(times):7.3f}s"


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="counted runs of each (default: 7)")
    runs = parser.parse_args().runs
    wall_time(IN_PROCESS), wall_time(OVER_STDIO)  # warm-up: file caches, .pyc files
    a_times, b_times = [], []
    for _ in range(runs):
        a_times.append(wall_time(IN_PROCESS))
        b_times.append(wall_time(OVER_STDIO))
    ratios = [b / a for a, b in zip(a_times, b_times)]
    print(f"whole suite, {runs} runs each, alternating (start-up included)")
    print(_row("in-process", a_times))
    print(_row("stdio", b_times))
    print(f"{'stdio / in-process':18} min {min(ratios):5.2f}x   median {statistics.median(ratios):5.2f}x")


if __name__ == "__main__":
    main()
