"""The README's test command: its wall and CPU time, and where the CPU goes, file by file.

    python bench/testrun.py [--workers 2,3] [--runs 1] [--top 30] [--no-require] [-- PYTEST_ARGS ...]

Runs ``python -m pytest -n W -q`` from the checkout (the README's command, ``-n auto`` unless
``--workers`` names counts) with CI's ``PAS_REQUIRE_*`` variables set, so that every host is
installed and nothing is skipped for want of one (``--no-require`` leaves them out), and with
``PYTHONDONTWRITEBYTECODE`` taken out of the environment, as in CI. With several worker counts
the runs alternate (2 3 2 3 ...). Each run prints its wall time and CPU time (user + sys of
pytest and everything it started and waited for), and its load average at the start.

The first run also records, through this module loaded as a pytest plugin in every worker (a copy
in a folder of its own: bench/ on the path would hide pytest-xdist behind bench/xdist.py), the CPU each test took: the worker's own (``self``) and that of the processes
the test started and waited for (``children``: hosts, ``pas`` subprocesses, venvs, the site's
build, the browser). The table sums them by test file, largest first. Fixtures are counted in
the test that first needed them (a shared build in its first user). What no test took (start-up,
collection, xdist's own work) is the difference to the run's total. A process a test leaves
running and nobody waits for is not counted; the totals say how much that leaves out.

A script, not a test: timing never appears in the test suite. A run takes minutes.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REQUIRE = ("PAS_REQUIRE_BROWSER", "PAS_REQUIRE_NODE", "PAS_REQUIRE_NEKRO", "PAS_REQUIRE_MAF",
           "PAS_REQUIRE_BIGTOOL", "PAS_REQUIRE_NODE_HOSTS")
# Where each worker writes one JSON line per test (set by the script for its first run only).
_RECORD_DIR = "PAS_BENCH_TESTRUN_DIR"
_PLUGIN = "pas_bench_testrun"


# ---- the plugin: loaded by pytest in the controller and in every worker (a copy, -p pas_bench_testrun) --

def _cpu() -> tuple[float, float]:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Around each test (its fixtures' set-up and tear-down included): its CPU, written to the run's folder."""
    folder = os.environ.get(_RECORD_DIR)
    if not folder:
        yield
        return
    own, children = _cpu()
    started = time.perf_counter()
    yield
    own_after, children_after = _cpu()
    line = {"file": item.nodeid.split("::")[0], "self": own_after - own, "children": children_after - children,
            "wall": time.perf_counter() - started}
    with open(Path(folder) / f"{os.getpid()}.jsonl", "a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")


# ---- the script ------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True, kw_only=True)
class Run:
    """One run of the test command."""

    workers: str
    wall: float
    cpu: float  # user + sys of pytest and every process it started and waited for
    load: float  # one-minute load average at the start
    exit: int
    summary: str  # pytest's last line


def run(workers: str, pytest_args: list[str], record: Path | None, require: bool) -> Run:
    """One run of the test command with ``-n workers``; with ``record``, each test's CPU is written there."""
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONDONTWRITEBYTECODE", _RECORD_DIR)}
    env.update(dict.fromkeys(REQUIRE, "1") if require else {})
    plugin = []
    if record is not None:
        probe = record / "probe"
        probe.mkdir()
        shutil.copyfile(__file__, probe / f"{_PLUGIN}.py")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(probe), env.get("PYTHONPATH"))))
        env[_RECORD_DIR] = str(record)
        plugin = ["-p", _PLUGIN]
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", workers, "-q", *plugin, *pytest_args],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = done.stdout.strip().splitlines()
    if done.returncode not in (0, 1):  # 1: tests failed (the summary says so); else pytest itself failed
        sys.stderr.write(done.stdout[-2000:] + done.stderr[-2000:])
    return Run(workers=workers, wall=wall, cpu=cpu, load=load, exit=done.returncode, summary=lines[-1] if lines else "")


def by_file(record: Path) -> list[tuple[str, float, float, float, int]]:
    """(file, self CPU, children CPU, wall, tests) for every test file, most CPU first."""
    sums: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0.0, 0])
    for path in record.glob("*.jsonl"):  # one per process
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            total = sums[row["file"]]
            total[0] += row["self"]
            total[1] += row["children"]
            total[2] += row["wall"]
            total[3] += 1
    rows = [(name, own, children, wall, int(count)) for name, (own, children, wall, count) in sums.items()]
    return sorted(rows, key=lambda row: -(row[1] + row[2]))


def table(rows: list[tuple[str, float, float, float, int]], top: int, cpu: float) -> str:
    """The per-file table: the ``top`` files, the rest in one line, and what no test took."""
    out = [f"{'cpu s':>7} {'self':>6} {'children':>8} {'wall s':>7} {'tests':>5}  file"]
    for name, own, children, wall, count in rows[:top]:
        out.append(f"{own + children:7.1f} {own:6.1f} {children:8.1f} {wall:7.1f} {count:5d}  {name}")
    rest = rows[top:]
    if rest:
        own, children = sum(r[1] for r in rest), sum(r[2] for r in rest)
        out.append(f"{own + children:7.1f} {own:6.1f} {children:8.1f} {sum(r[3] for r in rest):7.1f} "
                   f"{sum(r[4] for r in rest):5d}  the other {len(rest)} files")
    counted = sum(r[1] + r[2] for r in rows)
    out.append(f"{counted:7.1f} in tests of {cpu:.1f} s of the run's CPU; {cpu - counted:.1f} s outside them "
               "(start-up, collection, xdist, processes nobody waited for)")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    """Run the test command, alternating worker counts; print each run and the first run's per-file table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="auto", help="comma-separated -n values, alternated (default auto)")
    parser.add_argument("--runs", type=int, default=1, help="runs of each worker count")
    parser.add_argument("--top", type=int, default=30, help="files in the table")
    parser.add_argument("--no-require", action="store_true", help="leave CI's PAS_REQUIRE_* variables out")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments (after --)")
    args = parser.parse_args(argv)
    counts = [count.strip() for count in args.workers.split(",") if count.strip()]
    with tempfile.TemporaryDirectory(prefix="pas-testrun-") as folder:
        record: Path | None = Path(folder)
        results = []
        for _ in range(args.runs):
            for workers in counts:
                result = run(workers, args.pytest_args, record, not args.no_require)
                if record is not None:
                    rows, first_cpu = by_file(record), result.cpu
                    record = None
                results.append(result)
                print(f"-n {result.workers:>4}: {result.wall:6.1f} s wall {result.cpu:6.1f} s CPU  "
                      f"load {result.load:.1f} at the start  exit {result.exit}  {result.summary}", flush=True)
        print()
        print(table(rows, args.top, first_cpu))
    return max(result.exit for result in results)


if __name__ == "__main__":
    sys.exit(main())
