"""Fuzzing speed in steps per second: in-process against over stdio, side by side.

    python bench/fuzz.py [--examples N] [--runs R] [--quick]

A is ``pas fuzz --impl reference`` (the reference against itself, in-process); B is the same
search with the implementation behind the stdio protocol
(``cmd:python -m conformance serve-reference``, one process for the whole run). Both use
the same seed, so they generate the same cases and send the same steps; A and B run in
turn, A B A B ..., so that a drift in the machine's speed hits both alike. A step is one
event sent to the implementation (and to the reference beside it), generation included.

The fuzzer cannot go faster than the implementation it drives: *excluding the
implementation* divides the steps by the run's time minus the time spent inside the
adapter's ``start`` and ``send`` (for stdio: the round trip, the other process included),
which is what the fuzzer itself (generation, the reference beside it, the comparison)
sustains. Goals: 10,000 steps/s in-process, 3,000 over stdio. A script, not a test:
timing never appears in the test suite.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from conformance.adapters.inprocess import reference_adapter
from conformance.adapters.select import adapter_for
from conformance.fuzz.search import FuzzOptions, fuzz

STDIO = f"cmd:{sys.executable} -m conformance serve-reference"
GOALS = {"in-process": 10_000.0, "over stdio": 3_000.0}
SEED = 20240601


class _Timed:
    """An adapter wrapper that adds up the seconds spent inside the implementation's start and send."""

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

    def __getattr__(self, name: str) -> Any:
        return getattr(self.adapter, name)


def _measure(make_adapter, examples: int) -> tuple[float, float]:
    """(steps/s of the whole search, steps/s excluding the time inside the implementation)."""
    adapter = _Timed(make_adapter())
    try:
        adapter.hello()  # start-up (a process, for stdio) is not part of the steady rate
        result = fuzz(adapter, FuzzOptions(max_examples=examples, seed=SEED))
    finally:
        adapter.close()
    if result.finding is not None or result.hello_error is not None:
        sys.exit(f"the reference disagreed with itself: {result.finding or result.hello_error}")
    return result.steps_per_second, result.steps / max(result.duration - adapter.inside, 1e-9)


def _row(name: str, rates: list[float]) -> str:
    return f"{name:36} min {min(rates):9,.0f}   median {statistics.median(rates):9,.0f} steps/s"


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=300, help="cases per measurement (default: 300)")
    parser.add_argument("--runs", type=int, default=5, help="counted runs of each (default: 5)")
    parser.add_argument("--quick", action="store_true", help="100 cases, 3 runs (for bench/regenerate.py)")
    args = parser.parse_args()
    if args.quick:
        args.examples, args.runs = 100, 3
    sides = {"in-process": reference_adapter, "over stdio": lambda: adapter_for(STDIO)}
    for make in sides.values():
        _measure(make, 20)  # warm-up: imports, caches, .pyc files
    whole: dict[str, list[float]] = {k: [] for k in sides}
    harness: dict[str, list[float]] = {k: [] for k in sides}
    for _ in range(args.runs):
        for side, make in sides.items():
            rate, alone = _measure(make, args.examples)
            whole[side].append(rate)
            harness[side].append(alone)
    print(f"pas fuzz, the reference against itself: {args.examples} cases per run, {args.runs} runs each, alternating")
    for side in sides:
        print(_row(f"fuzz {side}", whole[side]))
        print(_row(f"fuzz {side}, excluding the impl", harness[side]))
    ratios = [a / b for a, b in zip(whole["in-process"], whole["over stdio"])]
    print(f"{'in-process / stdio':36} min {min(ratios):6.2f}x   median {statistics.median(ratios):6.2f}x")
    for side, goal in GOALS.items():
        median = statistics.median(whole[side])
        verdict = "met" if median >= goal else "NOT met"
        print(f"goal: at least {goal:,.0f} steps/s {side}: {verdict} ({median:,.0f})")


if __name__ == "__main__":
    main()
