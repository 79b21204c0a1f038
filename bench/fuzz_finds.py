"""Which deliberately broken implementations ``pas fuzz`` finds within a fixed budget.

    python bench/fuzz_finds.py [--max-examples N] [--time-budget SECONDS] [--seed S] [--quick]

Every fake in tests/fakes that can be fuzzed is fuzzed once, with the same seed and budget:
the in-process ones through ``python:NAME:create``, the stdio ones as
``cmd:python tests/fakes/NAME.py``. A fake is *found* when the search reports a
disagreement, an errored step or a failed hello, and *reported correctly* when that is the
kind :data:`REPORTED` lists for it (a hostile fake's first fault the fuzzer meets). Every
profile a fake claims is fuzzed (activation, disclosure and host cases take turns), the host
fakes included. One is listed but not fuzzed: ``broken_hangs``, which hangs in-process (no
timeout there) and has no stdio server. ``hostile_slow`` and ``hostile_setsid_clean_env``
answer correctly (only slowly; leaving a daemon the runner kills): nothing to find; a fake
that claims none of the fuzzed profiles must be reported as nothing to test. Prints a markdown
table and the count as expected; a script, not a test.
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
    """One fake: how to reach it, what the fuzzer should find, and what it must report it as."""

    name: str
    impl: str | None  # None: not fuzzed (see why)
    expect: str  # "wrong answers", "errors", "nothing", "nothing to test" or why it is not fuzzed
    reported: frozenset[str] = frozenset()  # the kinds that report it correctly (empty: any)


#: How each hostile fake must be reported: a failure kind, "failed" (a wrong answer) or "nothing to test".
#: The older fakes answer ``{}`` to every event: their first fault the fuzzer meets is that schema mismatch.
REPORTED: dict[str, tuple[str, ...]] = {
    "hostile_batched_crash": ("failed", "exited"), "hostile_closes_stdin": ("stdin-closed",),
    "hostile_crash": ("schema", "exited"), "hostile_deep_config": ("failed",),
    "hostile_deep_nesting": ("schema", "unreadable-line"), "hostile_duplicate_keys": ("duplicate-key",),
    "hostile_error": ("schema", "refused"), "hostile_exit_on_hello": ("exited",), "hostile_extra_field": ("schema",),
    "hostile_float_depth": ("schema",), "hostile_flood_line": ("line-too-long",),
    "hostile_flood_lines": ("unreadable-line",), "hostile_garbage": ("unreadable-line",),
    "hostile_hang": ("schema", "timeout"), "hostile_hang_mid_scenario": ("timeout",),
    "hostile_huge_id": ("unreadable-line",), "hostile_huge_text": ("failed",),
    "hostile_missing_answer": ("wrong-id", "timeout"), "hostile_no_profile": ("nothing to test",),
    "hostile_nondeterministic": ("failed",), "hostile_schema_invalid": ("schema",),
    "hostile_setsid_grandchild": ("schema",), "hostile_silent": ("timeout",), "hostile_stderr_spam": ("schema",),
    "hostile_stdout_log": ("unreadable-line",), "hostile_string_version": ("protocol-version",),
    "hostile_surrogate": ("unreadable-line",), "hostile_vendor_profiles": ("nothing to test",),
    "hostile_version": ("protocol-version",), "hostile_wrong_id": ("wrong-id",),
}
#: Hostile fakes that answer correctly (their hostility is elsewhere: slowness, a daemon left behind).
CORRECT = ("hostile_slow", "hostile_setsid_clean_env")


def _stdio(name: str, *args: str) -> str:
    return f"cmd:{sys.executable} {FAKES / f'{name}.py'} {' '.join(args)}".strip()


def _expect(name: str) -> str:
    reported = REPORTED.get(name, ())
    return "nothing to test" if reported == ("nothing to test",) else "errors"


def targets() -> list[Target]:
    """Every fake in tests/fakes, in name order."""
    found = []
    pids = Path(tempfile.gettempdir()) / "pas-fuzz-finds-grandchildren"
    for path in sorted(FAKES.glob("*.py")):
        name, text = path.stem, path.read_text(encoding="utf-8")
        reported = frozenset(REPORTED.get(name, ()))
        if name == "broken_hangs":
            found.append(Target(name, None, "not fuzzed: hangs in-process, no stdio server"))
        elif "def create" not in text and not name.startswith("hostile_"):
            continue  # a helper module (tests/fakes/breaks.py, reference_loop.py), not an implementation
        elif "def create" in text:
            hostile = name in ("broken_raises", "broken_returns_none", "broken_returns_string", "hostile_huge_text")
            found.append(Target(name, f"python:{name}:create", "errors" if hostile else "wrong answers", reported))
        elif name in CORRECT:
            found.append(Target(name, _stdio(name, *([str(pids)] if "setsid" in name else [])), "nothing"))
        elif name == "hostile_setsid_grandchild":
            found.append(Target(name, _stdio(name, str(pids)), "errors", reported))
        elif name in ("hostile_nondeterministic", "hostile_deep_config"):  # a wrong answer (the deep one: a host read)
            found.append(Target(name, _stdio(name), "wrong answers", reported))
        else:
            found.append(Target(name, _stdio(name), _expect(name), reported))
    return found


def _reported(result: FuzzResult) -> str:
    """What the search reported: a failure kind, "failed", "nothing to test" or "nothing"."""
    if result.hello_error is not None:
        return result.hello_error.kind.value
    if result.nothing_to_test is not None:
        return "nothing to test"
    if result.finding is None:
        return "nothing"
    found = result.finding.disagreement
    return found.kind.value if found.verdict.value == "errored" and found.kind else found.verdict.value


def _what(result: FuzzResult) -> str:
    if result.hello_error is not None:
        return f"errored at hello: {result.hello_error.reason}"
    if result.nothing_to_test is not None:
        return f"nothing to test: {result.nothing_to_test}"
    finding = result.finding
    if finding is None:
        return "nothing found"
    found = finding.disagreement
    where = "start" if found.event is None else f"step {found.index} ({describe(found.event)})"
    detail = found.reason if found.verdict.value == "errored" else found.mismatches[0].where
    after = f", after {len(finding.before)} earlier case{'s' if len(finding.before) > 1 else ''}" if finding.before else ""
    flaky = f", flaky: {finding.disagreed} of {finding.replays} replays" if finding.flaky else ""
    return f"{found.verdict.value} at {where}: {detail} ({len(finding.case.events)} steps{after}{flaky})"


def fuzz_one(target: Target, options: FuzzOptions, timeout: float) -> tuple[str, str, float]:
    """(what it was reported as, what in words, seconds) for one fake."""
    began = time.monotonic()
    adapter = adapter_for(target.impl, timeout=timeout)
    try:
        result = fuzz(adapter, options)
    finally:
        adapter.close()
    return _reported(result), _what(result), time.monotonic() - began


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
    print("| fake | how | expected | found | reported as | what (shrunk) | s |")
    print("| --- | --- | --- | --- | --- | --- | ---: |")
    score = total = 0
    for target in targets():
        if target.impl is None:
            print(f"| `{target.name}` | — | {target.expect} | — | | | |")
            continue
        how = "in-process" if target.impl.startswith("python:") else "stdio"
        reported, what, seconds = fuzz_one(target, options, args.timeout)
        found = reported not in ("nothing", "nothing to test")
        wanted = target.expect not in ("nothing", "nothing to test")
        right = not target.reported or reported in target.reported
        total += 1
        score += found == wanted and right and (reported == "nothing to test") == (target.expect == "nothing to test")
        mark = ("yes" if found else "**no**") if wanted else ("**yes**" if found else "no (correct)")
        kind = reported if right else f"**{reported}** (expected {' or '.join(sorted(target.reported))})"
        print(f"| `{target.name}` | {how} | {target.expect} | {mark} | {kind} | {what.replace('|', '/')} | "
              f"{seconds:.1f} |")
    print(f"\nas expected: {score} of {total} fuzzed fakes (found and reported as expected when broken, "
          "nothing when correct, nothing to test when none of the fuzzed profiles is claimed)")


if __name__ == "__main__":
    main()
