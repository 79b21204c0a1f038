"""Text and markdown renderings of a :class:`~conformance.report.diff.RunDiff` (markdown: for a PR comment).

Both list requirements first (what a claim of conformance is made of), then scenarios; within
each, worse first, then better, changed, added and removed.
"""

from __future__ import annotations

from collections.abc import Sequence

from conformance.report.diff import Change, Direction, RunDiff
from conformance.report.matrix import ImplementationRun

FOLD = 20  # rows beyond which a markdown table is folded into <details>
ORDER = (Direction.WORSE, Direction.BETTER, Direction.CHANGED, Direction.ADDED, Direction.REMOVED)
_MARK = {Direction.WORSE: "🔴", Direction.BETTER: "🟢", Direction.CHANGED: "🟡", Direction.ADDED: "➕",
         Direction.REMOVED: "➖"}


def _name(run: ImplementationRun) -> str:
    return f"{run.label} ({run.source})"


def _sorted(changes: Sequence[Change]) -> list[Change]:
    return sorted(changes, key=lambda c: ORDER.index(c.direction))


def _tally(diff: RunDiff, *, requirements: bool) -> str:
    found = [f"{diff.count(d, requirements=requirements)} {d.value}" for d in ORDER
             if diff.count(d, requirements=requirements)]
    compared = diff.compared_requirements if requirements else diff.compared_scenarios
    return f"{', '.join(found) or 'none changed'} (of {compared} in both)"


def _state(value: str) -> str:
    return value or "-"


def render_text(diff: RunDiff) -> str:
    """Aligned lines: a heading, then each changed requirement and scenario with its states."""
    lines = [f"pas report diff: {_name(diff.before)} -> {_name(diff.after)}",
             f"requirements: {_tally(diff, requirements=True)}",
             f"scenarios:    {_tally(diff, requirements=False)}"]
    for heading, changes in (("requirements", diff.requirements), ("scenarios", diff.scenarios)):
        if not changes:
            continue
        width = max(len(c.id) for c in changes)
        lines += ["", f"{heading}:"]
        for change in _sorted(changes):
            about = f"{change.level} " if change.level else ""
            why = change.detail if change.direction is not Direction.BETTER and change.detail else change.title
            moved = f"{_state(change.before)} -> {_state(change.after)}"
            lines.append(f"  {change.direction.value:<7}  {change.id:<{width}}  {moved:<20}  {about}{why}".rstrip())
    if not diff.requirements and not diff.scenarios:
        lines += ["", "no scenario or requirement changed state"]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table(changes: Sequence[Change], *, requirements: bool) -> list[str]:
    head = ("| | requirement | level | before | after | title |" if requirements
            else "| | scenario | before | after | detail |")
    rows = [head, "|---" * (head.count("|") - 1) + "|"]
    for c in _sorted(changes):
        mark = f"{_MARK[c.direction]} {c.direction.value}"
        if requirements:
            rows.append(f"| {mark} | `{c.id}` | {c.level} | {_state(c.before)} | {_state(c.after)} | {_cell(c.title)} |")
        else:
            why = c.detail if c.direction is not Direction.BETTER and c.detail else c.title
            rows.append(f"| {mark} | `{c.id}` | {_state(c.before)} | {_state(c.after)} | {_cell(why)} |")
    return rows


def render_markdown(diff: RunDiff) -> str:
    """A PR comment: a heading, the verdict in one line, a table of requirements and one of scenarios."""
    verdict = ("**Something got worse.**" if diff.worse else
               "Nothing got worse." if diff.requirements or diff.scenarios else
               "No scenario or requirement changed state.")
    lines = [f"### PAS conformance: {_cell(diff.before.label)} → {_cell(diff.after.label)}", "",
             f"{verdict} Requirements: {_tally(diff, requirements=True)}; scenarios: {_tally(diff, requirements=False)}.",
             "", f"<sub>`{_cell(diff.before.source)}` → `{_cell(diff.after.source)}`</sub>"]
    for heading, changes, requirements in (("Requirements", diff.requirements, True),
                                           ("Scenarios", diff.scenarios, False)):
        if not changes:
            continue
        lines += ["", f"#### {heading}", ""]
        if len(changes) > FOLD:  # a long table stays one click away, so the comment stays readable
            lines += [f"<details><summary>{len(changes)} {heading.lower()} changed</summary>", "",
                      *_table(changes, requirements=requirements), "", "</details>"]
        else:
            lines += _table(changes, requirements=requirements)
    return "\n".join(lines) + "\n"
