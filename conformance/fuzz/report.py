"""The human summary of a fuzz run: what was searched, and the finding with its first differing step."""

from __future__ import annotations

from pathlib import Path

from conformance.documents.excerpt import excerpt_json
from conformance.fuzz.case import describe
from conformance.fuzz.compare import Verdict
from conformance.fuzz.search import FuzzResult
from reference_impl.problems import Problem

_SHOWN_MISMATCHES = 6


def _numbers(result: FuzzResult) -> str:
    return (f"seed {result.seed}, {result.examples:,} examples, {result.steps:,} steps, {result.duration:.1f} s, "
            f"{result.steps_per_second:,.0f} steps/s")


def _finding_lines(result: FuzzResult) -> list[str]:
    finding = result.finding
    assert finding is not None  # only called for a result with a finding
    found = finding.disagreement
    where = "start" if found.index is None else f"{found.index} ({describe(found.event)})"
    lines = [f"  first differing step: {where}"]
    if found.verdict is Verdict.ERRORED:
        lines.append(f"    errored ({found.kind}): {found.reason}")
        if found.in_flight is not None and found.in_flight.pipelined:
            lines.append(f"    in flight {found.in_flight}: written ahead, none answered")
        lines += [f"    {line}" for line in found.detail.splitlines()[:8]]
    else:
        for mismatch in found.mismatches[:_SHOWN_MISMATCHES]:
            actual = mismatch.to_json()["actual"]
            lines.append(f"    {mismatch.where}: expected {excerpt_json(mismatch.expected, 200)}, got {excerpt_json(actual, 200)}")
        if len(found.mismatches) > _SHOWN_MISMATCHES:
            lines.append(f"    ... and {len(found.mismatches) - _SHOWN_MISMATCHES} more differences")
    steps = len(finding.case.events)
    if finding.before:
        count = len(finding.before)
        lines.append(f"  only after {count} earlier case{'s' if count > 1 else ''} ({sum(len(c.events) for c in finding.before)} "
                     "steps): replayed alone, in a fresh implementation, the case agrees; state is kept from one case "
                     "to the next")
    if finding.disagreed == 0:
        lines.append(f"  the case did not disagree again in {finding.replays} replays (a flaky implementation?); "
                     f"{steps} steps, unshrunk")
    elif finding.flaky:
        lines.append(f"  flaky: the case disagreed in {finding.disagreed} of {finding.replays} replays; "
                     "the same requests do not always get the same answers")
    if finding.disagreed and finding.original_steps > steps:
        lines.append(f"  shrunk from {finding.original_steps} to {steps} steps")
    return lines


def render(result: FuzzResult, *, impl: str, written: Path | None = None, problems: list[Problem] | None = None,
           confirmed: str | None = None) -> str:
    """The text ``pas fuzz`` prints: a headline, then the finding and the file written for it.

    ``confirmed`` is the outcome of the written scenario on the implementation (``failed``,
    ``errored``; anything else means it did not reproduce there).
    """
    name = result.info.name if result.info else impl
    if result.hello_error is not None:
        error = result.hello_error
        detail = f"\n    {error.detail}" if error.detail else ""
        return f"pas fuzz: {impl} errored before any case ({error.kind}): {error.reason}{detail}\n"
    if result.nothing_to_test is not None:
        return f"pas fuzz: nothing to test: {name}: {result.nothing_to_test}\n"
    if result.finding is None:
        stopped = "interrupted after" if result.interrupted else "no disagreement in"
        compared = "structured view and text" if result.text else "structured view"
        return (f"pas fuzz: {stopped} {result.examples:,} examples ({result.steps:,} steps, {result.duration:.1f} s, "
                f"{result.steps_per_second:,.0f} steps/s; seed {result.seed}; compared: {compared})\n")
    verdict = "errored" if result.finding.disagreement.verdict is Verdict.ERRORED else "disagrees with the reference"
    lines = [f"pas fuzz: {name} {verdict} ({_numbers(result)})", *_finding_lines(result)]
    if written is not None:
        files = f" ({len(list(written.glob('*.yaml')))} scenarios, to be run in name order)" if written.is_dir() else ""
        lines.append(f"  wrote {written}{files}")
        if confirmed is not None and confirmed not in ("failed", "errored"):
            lines.append(f"  warning: the scenario {confirmed} when run again on {name}")
        lines.append(f"  reproduce: pas run --impl '{impl}' --scenario {written}")
    for problem in problems or []:
        lines.append(f"  could not write the scenario: {problem.message}")
    return "\n".join(lines) + "\n"
