"""Which deliberately broken implementations ``pas fuzz`` finds within a fixed budget.

    python bench/fuzz_finds.py [--max-examples N] [--time-budget SECONDS] [--seed S] [--quick]

Every fake in tests/fakes that can be fuzzed is fuzzed once, with the same seed and budget:
the in-process ones through ``python:NAME:create``, the stdio ones as
``cmd:python tests/fakes/NAME.py``. A fake is *found* when the search reports a
disagreement, an errored step or a failed hello. Two kinds are listed but not fuzzed: the
host-profile fakes (``pas fuzz`` generates activation events only; the suite's host
scenarios catch them) and ``broken_hangs``, which hangs in-process (no timeout there) and
has no stdio server. ``hostile_slow`` answers correctly, only slowly: nothing to find.
Prints a markdown table and the count found; a script, not a test.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "fakes"))

from conformance.adapters.select import adapter_for
from conformance.fuzz.case import describe
from conformance.fuzz.search import FuzzOptions, FuzzResult, fuzz

FAKES = ROOT / "tests" / "fakes"
SEED = 0


@dataclass(frozen=True)
class Target:
    """One fake: how to reach it, and what the fuzzer should find."""

    name: str
    impl: str | None  # None: not fuzzed (see why)
    expect: str  # "wrong answers", "errors", "nothing" or why it is not fuzzed


def _stdio(name: str, *args: str) -> str:
    return f"cmd:{sys.executable} {FAKES / f'{name}.py'} {' '.join(args)}".strip()


def targets() -> list[Target]:
    """Every fake in tests/fakes, in name order."""
    found = []
    pids = Path(tempfile.gettempdir()) / "pas-fuzz-finds-grandchildren"
    for path in sorted(FAKES.glob("*.py")):
        name, text = path.stem, path.read_text(encoding="utf-8")
        if name == "broken_hangs":
            found.append(Target(name, None, "not fuzzed: hangs in-process, no stdio server"))
        elif "def create" not in text and not name.startswith("hostile_"):
            continue  # a helper module (tests/fakes/breaks.py), not an implementation
        elif "def create" in text:
            hostile = name in ("broken_raises", "broken_returns_none", "broken_returns_string", "hostile_huge_text")
            found.append(Target(name, f"python:{name}:create", "errors" if hostile else "wrong answers"))
        elif name == "hostile_slow":
            found.append(Target(name, _stdio(name), "nothing"))
        elif name == "hostile_setsid_grandchild":
            found.append(Target(name, _stdio(name, str(pids)), "errors"))
        else:
            found.append(Target(name, _stdio(name), "errors"))
    return found


def _what(result: FuzzResult) -> str:
    if result.hello_error is not None:
        return f"errored at hello: {result.hello_error.reason}"
    finding = result.finding
    if finding is None:
        return "nothing found"
    found = finding.disagreement
    where = "start" if found.event is None else f"step {found.index} ({describe(found.event)})"
    detail = found.reason if found.verdict.value == "errored" else found.mismatches[0].where
    after = f", after {len(finding.before)} earlier case{'s' if len(finding.before) > 1 else ''}" if finding.before else ""
    return f"{found.verdict.value} at {where}: {detail} ({len(finding.case.events)} steps{after})"


def fuzz_one(target: Target, options: FuzzOptions, timeout: float) -> tuple[bool, str, float]:
    """(found anything, what, seconds) for one fake."""
    began = time.monotonic()
    adapter = adapter_for(target.impl, timeout=timeout)
    try:
        result = fuzz(adapter, options)
    finally:
        adapter.close()
    found = result.finding is not None or result.hello_error is not None
    return found, _what(result), time.monotonic() - began


def main() -> None:
    """Fuzz every fake and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-examples", type=int, default=2000, help="cases per fake (default: 2000)")
    parser.add_argument("--time-budget", type=float, default=20.0, help="search seconds per fake (default: 20)")
    parser.add_argument("--seed", type=int, default=SEED, help=f"the seed of every search (default: {SEED})")
    parser.add_argument("--timeout", type=float, default=2.0, help="per-step timeout over stdio (default: 2)")
    parser.add_argument("--quick", action="store_true", help="500 cases, 5 s per fake")
    args = parser.parse_args()
    if args.quick:
        args.max_examples, args.time_budget = 500, 5.0
    options = FuzzOptions(max_examples=args.max_examples, seed=args.seed, time_budget=args.time_budget,
                          shrink_budget=10.0)
    print(f"budget per fake: {args.max_examples} cases or {args.time_budget:g} s of search, seed {args.seed}, "
          f"step timeout {args.timeout:g} s over stdio\n")
    print("| fake | how | expected | found | what (shrunk) | s |")
    print("| --- | --- | --- | --- | --- | ---: |")
    score = total = 0
    for target in targets():
        if target.impl is None:
            print(f"| `{target.name}` | — | {target.expect} | — | | |")
            continue
        how = "in-process" if target.impl.startswith("python:") else "stdio"
        found, what, seconds = fuzz_one(target, options, args.timeout)
        wanted = target.expect != "nothing"
        total += 1
        score += found == wanted
        mark = ("yes" if found else "**no**") if wanted else ("**yes**" if found else "no (correct)")
        print(f"| `{target.name}` | {how} | {target.expect} | {mark} | {what.replace('|', '/')} | {seconds:.1f} |")
    print(f"\nas expected: {score} of {total} fuzzed fakes (found when broken, nothing when correct)")


if __name__ == "__main__":
    main()
