"""pytest-xdist on PAS items: the same pytest run with ``-n 0`` and ``-n 2``, side by side.

    python bench/xdist.py [--runs N] [--seeds S] [--examples M] [--quick]

The pytest plugin turns a fuzz campaign (one item per seed) and the suite of every
``--pas-impl`` (one item per scenario) into pytest items, which pytest-xdist spreads over
workers. Two runs, each timed with ``-n 0`` (one process) and ``-n 2`` (two workers, each
starting its own implementations) in turn, ``-n 0`` ``-n 2`` ``-n 0`` ..., after one warm-up
of each:

- a fuzz campaign over stdio: ``pytest --pas-impl 'cmd:python -m conformance serve-reference'
  --pas-fuzz-seeds S --pas-fuzz-examples M -m pas_fuzz``;
- the suite against two implementations: ``pytest --pas-impl reference --pas-impl 'cmd:python
  -m conformance serve-reference' -m pas``.

Each runs in an empty temporary folder, so the plugin's items are all there is to collect,
with ``PYTHONDONTWRITEBYTECODE`` taken out of the environment as on a usual machine: pytest
rewrites the asserts of every module of the plugin's distribution, and without a bytecode
cache each process (each worker) compiles them again, about 130 modules. Printed: the minimum
and median wall time of each, and the speed-up (``-n 0`` / ``-n 2``, pair by pair, min and
median). Whole processes, start-up (and xdist's own, a full pytest start-up per worker)
included. On a machine with two cores the ideal is 2x; what other work takes of the cores,
the speed-up loses. A script, not a test: timing never appears in the test suite.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
SERVE = f"cmd:{sys.executable} -m conformance serve-reference"


def campaigns(seeds: int, examples: int) -> dict[str, list[str]]:
    """The pytest command line of each campaign, without ``-n``."""
    return {
        f"fuzz, {seeds} seeds x {examples} cases, over stdio": [
            *PYTEST, "--pas-impl", SERVE, "--pas-fuzz-seeds", str(seeds), "--pas-fuzz-examples", str(examples),
            "-m", "pas_fuzz"],
        "suite, reference in-process + over stdio": [*PYTEST, "--pas-impl", "reference", "--pas-impl", SERVE, "-m", "pas"],
    }


def wall_time(argv: list[str], folder: str) -> float:
    """Seconds one whole pytest run takes; exits when it does not pass."""
    began = time.perf_counter()
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run(argv, cwd=folder, capture_output=True, text=True, check=False,
                          env={**env, "PYTHONPATH": str(ROOT)})
    elapsed = time.perf_counter() - began
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} exited with {done.returncode}:\n{(done.stdout + done.stderr)[-1500:]}")
    return elapsed


def measure(name: str, argv: list[str], runs: int, folder: str) -> None:
    """Time ``argv`` with -n 0 and -n 2 in turn and print the speed-up."""
    serial, parallel = [*argv, "-n", "0"], [*argv, "-n", "2"]
    wall_time(serial, folder), wall_time(parallel, folder)  # warm-up
    ones, twos = [], []
    for _ in range(runs):
        ones.append(wall_time(serial, folder))
        twos.append(wall_time(parallel, folder))
    speedups = [a / b for a, b in zip(ones, twos)]
    print(f"{name}: {runs} runs each, alternating")
    print(f"  {'-n 0':14} min {min(ones):7.2f}s   median {statistics.median(ones):7.2f}s")
    print(f"  {'-n 2':14} min {min(twos):7.2f}s   median {statistics.median(twos):7.2f}s")
    print(f"  {'speed-up':14} min {min(speedups):6.2f}x   median {statistics.median(speedups):6.2f}x")


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="counted runs of each (default: 5)")
    parser.add_argument("--seeds", type=int, default=8, help="fuzz items (default: 8)")
    parser.add_argument("--examples", type=int, default=400, help="cases per fuzz item (default: 400)")
    parser.add_argument("--quick", action="store_true", help="2 runs, 4 seeds of 600 cases (for bench/regenerate.py)")
    args = parser.parse_args()
    if args.quick:
        args.runs, args.seeds, args.examples = 2, 4, 600
    with tempfile.TemporaryDirectory(prefix="pas-xdist-") as folder:
        for name, argv in campaigns(args.seeds, args.examples).items():
            measure(name, argv, args.runs, folder)
    print(f"load average {' / '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
