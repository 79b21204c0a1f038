"""Fuzzing speed in steps per second: in-process against over stdio, side by side.

    python bench/fuzz.py [--examples N] [--runs R]

A is ``pas fuzz --impl reference`` (the reference against itself, in-process); B is the same
search with the implementation behind the stdio protocol
(``cmd:python -m conformance serve-reference``, one process for the whole run). Both use
the same seed, so they generate the same cases and send the same steps; A and B run in
turn, A B A B ..., so that a drift in the machine's speed hits both alike. A step is one
event sent to the implementation (and to the reference beside it), Hypothesis' generation
included. The replay rows send the same cases again without Hypothesis, which shows what
the generation costs. The goal is at least 1,000 steps/s for A. This is a script, not a
test: timing never appears in the test suite.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from conformance.adapters.inprocess import reference_adapter  # noqa: E402
from conformance.adapters.select import adapter_for  # noqa: E402
from conformance.fuzz.compare import compare_case  # noqa: E402
from conformance.fuzz.search import FuzzOptions, fuzz  # noqa: E402
from reference_impl.engine import Engine  # noqa: E402

STDIO = f"cmd:{sys.executable} -m conformance serve-reference"
GOAL = 1_000.0
SEED = 20240601


def _fuzz_rate(make_adapter, examples: int) -> float:
    adapter = make_adapter()
    try:
        adapter.hello()  # start-up (a process, for stdio) is not part of the steady rate
        result = fuzz(adapter, FuzzOptions(max_examples=examples, seed=SEED))
    finally:
        adapter.close()
    if result.finding is not None or result.hello_error is not None:
        sys.exit(f"the reference disagreed with itself: {result.finding or result.hello_error}")
    return result.steps_per_second


def _cases(examples: int) -> list:
    from hypothesis import HealthCheck, Phase, given, seed, settings

    from conformance.fuzz.strategies import cases

    found: list = []

    @seed(SEED)
    @settings(max_examples=examples, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(cases())
    def collect(case):
        found.append(case)

    collect()
    return found


def _replay_rate(make_adapter, cases: list) -> float:
    adapter = make_adapter()
    reference = Engine()
    try:
        adapter.hello()
        started, steps = time.perf_counter(), 0
        for case in cases:
            steps += compare_case(adapter, case, reference, text=True).steps
        return steps / (time.perf_counter() - started)
    finally:
        adapter.close()


def _row(name: str, rates: list[float]) -> str:
    return f"{name:26} min {min(rates):9,.0f}   median {statistics.median(rates):9,.0f} steps/s"


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=300, help="cases per measurement (default: 300)")
    parser.add_argument("--runs", type=int, default=5, help="counted runs of each (default: 5)")
    args = parser.parse_args()
    in_process, over_stdio = reference_adapter, (lambda: adapter_for(STDIO))
    cases = _cases(args.examples)
    _fuzz_rate(in_process, 20), _fuzz_rate(over_stdio, 20)  # warm-up: imports, caches, .pyc files
    rates: dict[str, list[float]] = {"fuzz in-process": [], "fuzz over stdio": [],
                                     "replay in-process": [], "replay over stdio": []}
    for _ in range(args.runs):
        rates["fuzz in-process"].append(_fuzz_rate(in_process, args.examples))
        rates["fuzz over stdio"].append(_fuzz_rate(over_stdio, args.examples))
        rates["replay in-process"].append(_replay_rate(in_process, cases))
        rates["replay over stdio"].append(_replay_rate(over_stdio, cases))
    print(f"pas fuzz, the reference against itself: {args.examples} cases per run, {args.runs} runs each, alternating")
    for name, values in rates.items():
        print(_row(name, values))
    for kind in ("fuzz", "replay"):
        ratios = [a / b for a, b in zip(rates[f"{kind} in-process"], rates[f"{kind} over stdio"])]
        print(f"{kind + ' in-process / stdio':26} min {min(ratios):6.2f}x   median {statistics.median(ratios):6.2f}x")
    generation = [r / f for f, r in zip(rates["fuzz in-process"], rates["replay in-process"])]
    print(f"{'replay / fuzz (in-process)':26} median {statistics.median(generation):6.2f}x  (the cost of generating)")
    median = statistics.median(rates["fuzz in-process"])
    verdict = "met" if median >= GOAL else "NOT met"
    print(f"goal: at least {GOAL:,.0f} steps/s in-process: {verdict} ({median:,.0f})")


if __name__ == "__main__":
    main()
