"""The human report: one block per scenario that did not pass, then the summaries.

``failure_text`` and ``error_text`` are the readable expected-vs-actual diff shared by the
other reporters and by the pytest plugin.
"""

from __future__ import annotations

import difflib
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from conformance.adapters.implementation import UNATTRIBUTED_KINDS
from conformance.documents.excerpt import excerpt_json
from conformance.suite.expectations import Mismatch
from conformance.suite.results import Outcome, RequirementStatus, RunResult, ScenarioResult
from reference_impl.problems import SourceLocation

_COLORS = {"red": "31", "green": "32", "yellow": "33", "bold": "1", "dim": "2"}
_OUTCOME_COLOR = {Outcome.FAILED: "red", Outcome.ERRORED: "red", Outcome.STALE: "red",
                  Outcome.XFAILED: "yellow", Outcome.SKIPPED: "yellow", Outcome.PASSED: "green"}
_MAX_VALUE = 200


def paint(text: str, color: str, enabled: bool) -> str:
    """``text`` in an ANSI colour when ``enabled``."""
    return f"\x1b[{_COLORS[color]}m{text}\x1b[0m" if enabled else text


def show(value: Any, limit: int = _MAX_VALUE) -> str:
    """A value as compact JSON (repr when not JSON), cut to ``limit`` characters."""
    return excerpt_json(value, limit)


def show_whole(value: Any) -> str:
    """A value as compact JSON (repr when not JSON), never cut: what was sent, say, schemas and all."""
    return excerpt_json(value, sys.maxsize)


def _missing(mismatch: Mismatch) -> bool:
    return mismatch.to_json()["actual"] is None and str(mismatch).endswith("got (missing)")


def _whole_text(text: Any) -> list[str]:
    """The text an implementation rendered, every line of it (already bounded to 64 KiB by the runner)."""
    if not isinstance(text, str):
        return [f"  text was {show(text)}"]
    return ["  text was:", *(f"  | {line}" for line in text.splitlines() or [""])]


def mismatch_lines(mismatch: Mismatch) -> list[str]:
    """One line per simple difference; a unified diff for differing texts, never cut at a fixed length."""
    expected, actual = mismatch.expected, mismatch.actual
    if mismatch.field == "text" and mismatch.check == "equals" and isinstance(expected, str) and isinstance(actual, str):
        diff = difflib.unified_diff(expected.splitlines(), actual.splitlines(), "expected", "actual", lineterm="", n=1)
        return ["/text differs from the expected text:", *(f"  {line}" for line in diff)]
    if mismatch.field == "text" and mismatch.check == "contains":
        return [f"/text should contain {show(expected, len(str(expected)) + 2)}", *_whole_text(actual)]
    if mismatch.field == "text" and mismatch.check == "not_contains":
        return [f"/text should not contain {expected.removeprefix('no ')} but does", *_whole_text(actual)]
    got = "(missing)" if _missing(mismatch) else show(actual)
    return [f"{mismatch.where}: expected {show(expected)}, got {got}"]


def breaks_lines(breaks: Iterable[str]) -> list[str]:
    """One line per broken requirement: ID, RFC 2119 level and its text from spec/requirements.yaml."""
    from conformance.suite.coverage import load_requirements

    known = load_requirements()[0]
    lines = []
    for requirement_id in breaks:
        requirement = known.get(requirement_id)
        said = f" ({requirement.level}) {requirement.text}" if requirement is not None and requirement.text else ""
        lines.append(f"breaks   {requirement_id}{said}")
    return lines or ["breaks   (no requirement named)"]


def _view(view: Any) -> str:
    if not isinstance(view, Mapping):
        return show(view, 60)
    rounds = f"({view['rounds_left']})" if view.get("rounds_left") is not None else ""
    hint = "+hint" if view.get("hint") else ""
    return f"{view.get('module_name')} {view.get('state')}{rounds}{hint}"


def observed_text(observed: Any) -> str:
    """A one-line digest of an observation (the plugins shown, or a reply's fields)."""
    if isinstance(observed, Mapping) and isinstance(observed.get("plugins"), list):
        return " | ".join(_view(v) for v in observed["plugins"]) or "(no plugins shown)"
    if isinstance(observed, Mapping):
        return show({k: v for k, v in observed.items() if k != "text"}, 300)
    return show(observed, 300)


def _where(source: SourceLocation | None) -> str:
    """``path:line:column, `` with the path relative to the current folder when inside it."""
    if source is None:
        return ""
    path = Path(source.path)
    try:
        path = path.resolve().relative_to(Path.cwd())
    except (ValueError, OSError):
        pass
    return f"{replace(source, path=str(path))}, "


def failure_text(result: ScenarioResult) -> str:
    """The readable diff of a failed (or xfailed) result: step, event sent, what differed."""
    failure = result.failure
    if failure is None:
        return error_text(result)
    where = _where(failure.source)
    note = f": {failure.note}" if failure.note else ""
    lines = [f"{where}step {failure.index} ({failure.action}){note}",
             f"sent     {show_whole(failure.event)}",
             *breaks_lines(failure.breaks)]
    for mismatch in failure.mismatches:
        lines += mismatch_lines(mismatch)
    lines.append(f"observed {observed_text(failure.observed)}")
    return "\n".join(lines)


def error_text(result: ScenarioResult) -> str:
    """Why a scenario errored: where, the reason, its kind, the requests in flight (when several) and the detail."""
    error = result.error
    if error is None:
        return result.reason
    at = "while starting the scenario" if error.step is None else f"at step {error.step}"
    lines = [f"{error.reason} ({at})", f"kind     {error.kind}"]
    if error.event is not None:
        lines.append(f"sent     {show_whole(error.event)}")
    if error.in_flight is not None and error.in_flight.pipelined and error.kind in UNATTRIBUTED_KINDS:
        lines.append(f"in flight {error.in_flight}: written ahead, none answered; strictly in turn each was answered")
    if error.detail:
        lines.append(f"detail   {error.detail}")
    return "\n".join(lines)


def headline(result: ScenarioResult) -> str:
    """One line naming a result: the first mismatch, the error reason, or the listed reason."""
    if result.outcome is Outcome.STALE:
        return f"listed as an expected failure ({result.reason}) but passed: remove it from the file"
    if result.outcome in (Outcome.SKIPPED, Outcome.XFAILED):
        return result.reason
    if result.failure is not None:
        first = mismatch_lines(result.failure.mismatches[0])[0] if result.failure.mismatches else "differs"
        return f"step {result.failure.index} ({result.failure.action}): {first}"
    return error_text(result).splitlines()[0] if result.error else result.reason


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


def _result_block(result: ScenarioResult, color: bool) -> str:
    label = paint(f"{result.outcome.value.upper():7}", _OUTCOME_COLOR[result.outcome], color)
    head = f"{label} {paint(result.id, 'bold', color)} {paint(result.title, 'dim', color)}"
    if result.outcome in (Outcome.FAILED, Outcome.ERRORED):
        return f"{head}\n{_indent(failure_text(result))}"
    return f"{head}\n    {headline(result)}"


def _same_error(result: ScenarioResult) -> tuple[Any, ...]:
    """Results errored the same way share a key (one block for all of them): the same kind, reason and detail,
    request numbers and the stderr tail aside."""
    error = result.error
    if result.outcome is Outcome.ERRORED and error is not None:
        said = error.detail.split("stderr (last", 1)[0]
        return (error.kind, re.sub(r"request \d+", "request", error.reason), re.sub(r"request \d+", "request", said))
    return (id(result),)


#: From how many scenarios with the same error the report suggests -x.
_SUGGEST_FAIL_FAST = 3


def _blocks(results: Iterable[ScenarioResult], color: bool) -> list[str]:
    """One block per result, except one block for every scenario that errored the same way."""
    groups: dict[tuple[Any, ...], list[ScenarioResult]] = {}
    for result in results:
        groups.setdefault(_same_error(result), []).append(result)
    blocks = []
    for members in groups.values():
        if len(members) == 1:
            blocks.append(_result_block(members[0], color))
            continue
        label = paint(f"{Outcome.ERRORED.value.upper():7}", "red", color)
        ids = ", ".join(r.id for r in members)
        first = members[0]
        advice = ("\n    one mistake errs every scenario that meets it: fix it, or stop at the first error "
                  "with -x (--fail-fast) next time" if len(members) >= _SUGGEST_FAIL_FAST else "")
        blocks.append(f"{label} the same error in {len(members)} scenarios: {ids}\n"
                      f"    the first, {first.id}:\n{_indent(error_text(first), '      ')}{advice}")
    return blocks


def _skipped_lines(results: Iterable[ScenarioResult], color: bool, *, total: int) -> list[str]:
    """One line per reason; the scenarios a stopped run did not run are listed, unless that is all of them."""
    by_reason: dict[str, list[str]] = {}
    for result in results:
        by_reason.setdefault(result.reason, []).append(result.id)
    label = paint("SKIPPED", "yellow", color)
    lines = []
    for reason, ids in by_reason.items():
        lines.append(f"{label} {len(ids)} scenario(s): {reason}")
        if reason.startswith("not run") and len(ids) < total:
            lines.append(f"    not run: {', '.join(ids)}")
    return lines


def status_words(status: str) -> str:
    """A requirement verdict as the summaries say it (``declined by declaration`` for ``declined``)."""
    return "declined by declaration" if status == RequirementStatus.DECLINED else status


def requirement_lines(run: RunResult) -> list[str]:
    """Verdicts per RFC 2119 level, then each requirement that is not met, then each declined SHOULD.

    A declined SHOULD is a hazard the implementation declares (a disclosure option's value):
    its title says what users will hit, and the declared values why it is declined.
    """
    lines = ["Requirements (" + ", ".join(run.profiles) + "):"]
    width = max((len(level) for level in run.summary.levels), default=7)
    for level, counts in run.summary.levels.items():
        parts = [f"{n} {status_words(status)}" for status, n in counts.items() if n]
        lines.append(f"  {level:{width}} {', '.join(parts)} (of {sum(counts.values())})")
    bad = {RequirementStatus.FAILED, RequirementStatus.ERRORED}
    for tally in run.summary.requirements:
        if tally.status in bad:
            tallied = ", ".join(f"{n} {o}" for o, n in tally.counts.items() if n)
            lines.append(f"  {tally.status.value:7} {tally.requirement.id} ({tally.requirement.level}) {tallied}")
    for tally in run.summary.requirements:
        if tally.status is RequirementStatus.DECLINED:
            r = tally.requirement
            lines.append(f"  declined {r.id} ({r.level}) {r.title}: declared {tally.declined}")
    return lines


def summary_line(run: RunResult) -> str:
    """``N scenarios: a passed, b failed, ... in 0.12s`` (plus why the run stopped early)."""
    parts = [f"{n} {outcome}" for outcome, n in run.summary.counts.items() if n]
    stop = f" (stopped: {run.stop.message})" if run.stop else " (interrupted)" if run.interrupted else ""
    return f"{len(run.results)} scenarios: {', '.join(parts) or 'none run'} in {run.duration:.2f}s{stop}"


def render(run: RunResult, *, color: bool = False) -> str:
    """The whole human report."""
    info = run.info
    who = f"{info.name} {info.version} ({info.language})" if info else "the implementation (no hello)"
    spec = f"; spec {run.spec_version}" if run.spec_version else ""
    lines = [f"pas run: {who}{spec}; profiles {', '.join(run.profiles)}", ""]
    shown = [r for r in run.results if r.outcome not in (Outcome.PASSED, Outcome.SKIPPED)]
    lines += _blocks(shown, color)
    lines += _skipped_lines((r for r in run.results if r.outcome is Outcome.SKIPPED), color, total=len(run.results))
    if len(lines) > 2:
        lines.append("")
    lines += requirement_lines(run)
    lines.append(paint(summary_line(run), "green" if run.ok else "red", color))
    return "\n".join(lines) + "\n"
