"""Fuzzing speed in steps per second: in-process against over stdio, side by side.

    python bench/fuzz.py [--examples N] [--runs R] [--profile P ...] [--quick]

A is ``pas fuzz --impl reference`` (the reference against itself, in-process); B is the same
search with the implementation behind the stdio protocol
(``cmd:python -m conformance serve-reference``, one process for the whole run; it announces a
``pipeline_depth``, so each case's requests are written ahead, and the next case's once every
answer of this one has come); C is B strictly in turn
(``serve-reference --pipeline-depth 1``). All use the same seed, so they generate the same
cases and send the same steps; they run in turn, A B C A B C ..., so that a drift in the
machine's speed hits all alike. A step is one event sent to the implementation (and to the
reference beside it), generation included. Each measured run follows :data:`WARM_UP` cases of
another seed on the same implementation, not counted: a campaign runs one process for millions
of steps, so the rate is the steady one, without a fresh server's first schema checks and imports. The reference claims every profile, so activation,
disclosure and host cases take turns; ``--profile`` narrows them as ``pas fuzz --profile`` does
(``--profile activation --profile text --profile disclosure``: the cases of before host fuzzing).

The fuzzer cannot go faster than the implementation it drives: *excluding the
implementation* divides the steps by the run's time minus the time spent inside the
adapter's ``start`` and ``send``, or waiting for each answer of its ``stream`` (for stdio:
the round trip, the other process included), which is what the fuzzer itself (generation,
the reference beside it, the comparison) sustains. *Per CPU second* divides by the CPU seconds of both processes (this one and,
over stdio, the implementation's, read from /proc): on a machine shared with other work
the wall rate measures the share of a core the run got, the CPU rate the work per step. Over
stdio, each process's CPU per step bounds the wall rate: on one free core by their sum, on two
by the larger (the implementation works on the next case while the fuzzer compares this one).
Goals: 10,000 steps/s in-process, 3,000 over stdio. A script, not a test:
timing never appears in the test suite.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from conformance.adapters.implementation import stream
from conformance.adapters.inprocess import reference_adapter
from conformance.adapters.select import adapter_for
from conformance.fuzz.search import FuzzOptions, fuzz

STDIO = f"cmd:{sys.executable} -m conformance serve-reference"
GOALS = {"in-process": 10_000.0, "over stdio": 8_000.0, "stdio in turn": 3_000.0}  # over stdio: issue 28 (was 3,000)
SEED = 20240601
WARM_UP = 20  # cases run (with another seed) before each measured run, on the same implementation, not counted


class _Timed:
    """An adapter wrapper that adds up the seconds spent inside the implementation's start, send and stream."""

    def __init__(self, adapter: Any) -> None:
        self.adapter, self.inside = adapter, 0.0

    def start(self, manifests, host) -> None:
        began = time.perf_counter()
        try:
            self.adapter.start(manifests, host)
        finally:
            self.inside += time.perf_counter() - began

    def send(self, event) -> Any:
        began = time.perf_counter()
        try:
            return self.adapter.send(event)
        finally:
            self.inside += time.perf_counter() - began

    def stream(self, events, *, start=None, then=None):
        """The adapter's stream (or start and send in turn), timing each answer's wait."""
        answers = stream(self.adapter, events, start=start, then=then)
        try:
            while True:
                began = time.perf_counter()
                try:
                    answer = next(answers)
                except StopIteration:
                    return
                finally:
                    self.inside += time.perf_counter() - began
                yield answer
        finally:
            answers.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.adapter, name)


def _cpu(pid: int | None) -> tuple[float, float]:
    """CPU seconds (user + sys) of this process, and of process ``pid`` (Linux /proc; 0 without one)."""
    seconds = 0.0
    if pid is not None:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            seconds = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return time.process_time(), seconds


def _measure(make_adapter, examples: int, profiles: list[str] | None = None) -> tuple[tuple[float, float, float],
                                                                                     tuple[float, float]]:
    """Steps per second (of the whole search, per CPU second of both processes, excluding the implementation),
    and the CPU microseconds per step of the fuzzer's process and of the implementation's."""
    adapter = _Timed(make_adapter())
    try:
        adapter.hello()  # start-up (a process, for stdio) is not part of the steady rate,
        fuzz(adapter, FuzzOptions(max_examples=WARM_UP, seed=SEED + 1, profiles=profiles))  # nor its first caches
        adapter.inside = 0.0
        pid = getattr(adapter.adapter, "pid", None)
        before = _cpu(pid)
        result = fuzz(adapter, FuzzOptions(max_examples=examples, seed=SEED, profiles=profiles))
        own, theirs = (after - earlier for after, earlier in zip(_cpu(pid), before))
    finally:
        adapter.close()
    if result.finding is not None or result.hello_error is not None:
        sys.exit(f"the reference disagreed with itself: {result.finding or result.hello_error}")
    per_step = max(result.steps, 1) / 1e6
    return ((result.steps_per_second, result.steps / max(own + theirs, 1e-9),
             result.steps / max(result.duration - adapter.inside, 1e-9)), (own / per_step, theirs / per_step))


def _row(name: str, rates: list[float]) -> str:
    return f"{name:40} min {min(rates):9,.0f}   median {statistics.median(rates):9,.0f} steps/s"


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=300, help="cases per measurement (default: 300)")
    parser.add_argument("--runs", type=int, default=5, help="counted runs of each (default: 5)")
    parser.add_argument("--profile", action="append", help="compare only these profiles (repeatable; default: all)")
    parser.add_argument("--quick", action="store_true", help="100 cases, 3 runs (for bench/regenerate.py)")
    args = parser.parse_args()
    if args.quick:
        args.examples, args.runs = 100, 3
    sides = {"in-process": reference_adapter, "over stdio": lambda: adapter_for(STDIO),
             "stdio in turn": lambda: adapter_for(f"{STDIO} --pipeline-depth 1")}
    for make in sides.values():
        _measure(make, 20, args.profile)  # warm-up: imports, caches, .pyc files
    rows = ("wall", "per CPU second", "excluding the impl")
    rates: dict[tuple[str, str], list[float]] = {(side, row): [] for side in sides for row in rows}
    cpus: dict[str, list[tuple[float, float]]] = {side: [] for side in sides}
    for _ in range(args.runs):
        for side, make in sides.items():
            measured, cpu = _measure(make, args.examples, args.profile)
            cpus[side].append(cpu)
            for row, rate in zip(rows, measured):
                rates[side, row].append(rate)
    kinds = ", ".join(args.profile) if args.profile else "every profile (activation, disclosure and host cases in turn)"
    print(f"pas fuzz, the reference against itself: {args.examples} cases per run, {args.runs} runs each, alternating; "
          f"{kinds}")
    for side in sides:
        for row in rows:
            print(_row(f"fuzz {side}, {row}", rates[side, row]))
    for side in ("over stdio", "stdio in turn"):
        ratios = [a / b for a, b in zip(rates["in-process", "wall"], rates[side, "wall"])]
        print(f"{f'in-process / {side} (wall)':40} min {min(ratios):6.2f}x   median {statistics.median(ratios):6.2f}x")
    for side in ("over stdio", "stdio in turn"):  # what the two processes cost bounds the wall rate
        own, theirs = (statistics.median(cpu[i] for cpu in cpus[side]) for i in (0, 1))
        print(f"{f'{side}, CPU per step (median)':40} the fuzzer {own:5.0f} us, the implementation {theirs:5.0f} us: "
              f"at most {1e6 / (own + theirs):,.0f} steps/s on one free core, {1e6 / max(own, theirs, 1e-9):,.0f} on two")
    print(f"load average {' / '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    for side, goal in GOALS.items():
        wall, cpu = (statistics.median(rates[side, row]) for row in rows[:2])
        print(f"goal: at least {goal:,.0f} steps/s {side}: wall {'met' if wall >= goal else 'NOT met'} ({wall:,.0f}), "
              f"per CPU second {'met' if cpu >= goal else 'NOT met'} ({cpu:,.0f})")


if __name__ == "__main__":
    main()
