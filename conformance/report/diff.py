"""What changed between two runs: the scenarios and requirements whose state differs, by their stable IDs.

Input is two :class:`~conformance.report.matrix.ImplementationRun` values, read from
``pas run --format json`` reports by :func:`~conformance.report.matrix.parse_results`: two runs of
one implementation (before and after a change) or two implementations. Each ID present in
either run is compared; one whose state differs is a :class:`Change`, whose direction says
whether it got worse, better, or only changed:

* a scenario is *bad* when failed, errored or stale, *good* when passed, and *neutral* otherwise
  (skipped, xfailed, and any outcome this table does not know yet);
* a requirement is *bad* when failed or errored, *good* when passed, and neutral otherwise
  (xfailed, untested, and any verdict this table does not know yet, such as a new profile's).

Worse is bad after and not bad before, or good before and neutral after; better the reverse;
an ID in only one run is ``added`` or ``removed``. Renderers: :mod:`conformance.report.diff_render`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from conformance.report.matrix import ImplementationRun

#: Scenario outcomes and requirement verdicts by how good they are: -1 bad, 1 good; absent: 0, neutral.
SCENARIO_SCORE = {"failed": -1, "errored": -1, "stale": -1, "passed": 1}
REQUIREMENT_SCORE = {"failed": -1, "errored": -1, "passed": 1}


class Direction(enum.StrEnum):
    """How a state changed from the first run to the second."""

    WORSE = "worse"
    BETTER = "better"
    CHANGED = "changed"  # as good as before, but different (say, skipped -> xfailed)
    ADDED = "added"  # only in the second run
    REMOVED = "removed"  # only in the first run


@dataclass(frozen=True, slots=True, kw_only=True)
class Change:
    """One scenario or requirement whose state differs; ``before`` or ``after`` is "" when it is absent."""

    id: str
    before: str
    after: str
    direction: Direction
    title: str = ""
    level: str = ""  # a requirement's MUST / SHOULD / MAY
    detail: str = ""  # a scenario's one-line why, in the second run (the first when removed)


@dataclass(frozen=True, slots=True, kw_only=True)
class RunDiff:
    """The changes between ``before`` and ``after``, scenarios and requirements, in the second run's order."""

    before: ImplementationRun
    after: ImplementationRun
    scenarios: tuple[Change, ...]
    requirements: tuple[Change, ...]
    compared_scenarios: int  # IDs in both runs
    compared_requirements: int

    @property
    def worse(self) -> bool:
        """Whether anything got worse (the exit status of ``pas report diff``)."""
        return any(c.direction is Direction.WORSE for c in (*self.scenarios, *self.requirements))

    def count(self, direction: Direction, *, requirements: bool = False) -> int:
        """How many scenario (or requirement) changes go in ``direction``."""
        return sum(c.direction is direction for c in (self.requirements if requirements else self.scenarios))


def direction(before: str, after: str, score: Mapping[str, int]) -> Direction:
    """The direction of one change of state (``before != after``; "" is absent)."""
    if not before:
        return Direction.ADDED
    if not after:
        return Direction.REMOVED
    old, new = score.get(before, 0), score.get(after, 0)
    if new < old:
        return Direction.WORSE
    return Direction.BETTER if new > old else Direction.CHANGED


def _changes(before: Mapping[str, str], after: Mapping[str, str], score: Mapping[str, int]) -> list[tuple[str, str, str, Direction]]:
    ids = list(dict.fromkeys([*after, *before]))  # the second run's order, then what only the first has
    return [(i, before.get(i, ""), after.get(i, ""), direction(before.get(i, ""), after.get(i, ""), score))
            for i in ids if before.get(i, "") != after.get(i, "")]


def diff_runs(before: ImplementationRun, after: ImplementationRun) -> RunDiff:
    """Compare two runs scenario by scenario and requirement by requirement."""
    old_outcomes = {sid: cell.outcome for sid, cell in before.cells.items()}
    new_outcomes = {sid: cell.outcome for sid, cell in after.cells.items()}
    scenarios = tuple(
        Change(id=sid, before=old, after=new, direction=way, title=after.titles.get(sid) or before.titles.get(sid, ""),
               detail=(after.cells.get(sid) or before.cells[sid]).detail)
        for sid, old, new, way in _changes(old_outcomes, new_outcomes, SCENARIO_SCORE))
    info = {**before.requirements, **after.requirements}
    requirements = tuple(
        Change(id=rid, before=old, after=new, direction=way, title=info[rid].title if rid in info else "",
               level=info[rid].level if rid in info else "")
        for rid, old, new, way in _changes(before.verdicts, after.verdicts, REQUIREMENT_SCORE))
    return RunDiff(before=before, after=after, scenarios=scenarios, requirements=requirements,
                   compared_scenarios=len(set(before.cells) & set(after.cells)),
                   compared_requirements=len(set(before.verdicts) & set(after.verdicts)))
