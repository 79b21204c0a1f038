"""Attribution: for each single-bug fake, does a failure blame the rule the bug breaks?

Each fake in tests/fakes with a ``Breaks: ID`` docstring line is run through the bundled
suite in-process (tests/support/breaks.py); the requirements its failed scenarios blame are
compared with the named one. Prints a markdown table (fake, named requirement, blamed,
ok?: the named one is blamed with at most two others), then the median and maximum number
of requirements blamed besides the named one, and the same figures for the old rule (every
requirement the failing step, or else the scenario, covers) measured side by side.

    python bench/attribution.py
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the tests' helpers are the package support/ under tests/

from support import breaks

import conformance.suite.attribution as attribution


def _table(rows: list) -> list[str]:
    lines = ["| fake | named | blamed | others | ok? |", "| --- | --- | --- | ---: | --- |"]
    for row in rows:
        lines.append(f"| {row.fake} | {row.named} | {', '.join(row.blamed) or '(nothing failed)'} "
                     f"| {len(row.others)} | {'ok' if row.ok else 'NO'} |")
    return lines


def _figures(rows: list) -> str:
    others = [len(r.others) for r in rows]
    named = sum(r.named in r.blamed for r in rows)
    return (f"{len(rows)} fakes: named requirement blamed for {named}; ok {sum(r.ok for r in rows)}; "
            f"others blamed: median {statistics.median(others):g}, max {max(others)}")


def _old_rule() -> list:
    """The same measurement with the runner's former rule: the step's covers, else the scenario's."""
    original = attribution.blamed  # the runner imports it when a step fails, from this module
    attribution.blamed = lambda scenario, step, mismatches, observed=None, declared=None: step.covers or scenario.covers
    try:
        return breaks.measure()
    finally:
        attribution.blamed = original


def main() -> None:
    """Print the table and the figures, new rule then old rule."""
    rows = breaks.measure()
    print("\n".join(_table(rows)))
    print()
    print("attribution table:", _figures(rows))
    print("old rule (covers): ", _figures(_old_rule()))


if __name__ == "__main__":
    main()
