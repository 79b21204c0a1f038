"""What a conformance run produces: one result per scenario, and a summary by requirement.

Results are plain frozen values with ``to_json``; reporters (``conformance.report``) turn
them into text, JSON lines, JUnit XML or markdown. Nothing here renders for humans.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from conformance.adapters.implementation import FailureKind, InFlight
from conformance.suite.expectations import Mismatch
from conformance.suite.requirements import Requirement as Requirement  # where callers found it first
from reference_impl.disclosure_options import Options
from reference_impl.model import ImplementationInfo
from reference_impl.problems import SourceLocation


class Outcome(enum.StrEnum):
    """How one scenario ended."""

    PASSED = "passed"
    FAILED = "failed"  # a step's observation differs from the expectation
    ERRORED = "errored"  # the implementation crashed, hung, or broke the protocol
    SKIPPED = "skipped"  # the scenario needs a profile the implementation does not claim
    XFAILED = "xfailed"  # failed or errored, as listed in the expected-failures file
    STALE = "stale"  # listed as an expected failure, but passed


#: The most kept of one value an implementation returned (a text, a list): a misbehaving
#: implementation must not be able to grow the report, or the runner's memory, without bound.
MAX_KEPT_CHARS = 64 * 1024
MAX_KEPT_ITEMS = 1000
MAX_KEPT_DEPTH = 64


def bounded(value: Any, *, limit: int = MAX_KEPT_CHARS, items: int = MAX_KEPT_ITEMS, depth: int = MAX_KEPT_DEPTH) -> Any:
    """``value`` with every string cut to ``limit`` characters, every list or mapping to ``items``
    entries and what is nested deeper than ``depth`` levels to a note; each cut says how large the
    original was. Other values are returned as they are.
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return value
        return f"{value[:limit]}... [cut: {len(value)} characters in all, the first {limit} kept]"
    if isinstance(value, (Mapping, list, tuple)) and depth <= 0:
        return f"[cut: nested deeper than {MAX_KEPT_DEPTH} levels]"
    if isinstance(value, Mapping):
        kept = {str(k)[:limit]: bounded(v, limit=limit, items=items, depth=depth - 1)
                for k, v in list(value.items())[:items]}
        if len(value) > items:
            kept["..."] = f"[cut: {len(value)} entries in all, the first {items} kept]"
        return kept
    if isinstance(value, (list, tuple)):
        kept_items = [bounded(v, limit=limit, items=items, depth=depth - 1) for v in value[:items]]
        if len(value) > items:
            kept_items.append(f"[cut: {len(value)} items in all, the first {items} kept]")
        return kept_items
    return value


#: Outcomes that make a run bad (``pas run`` exits with 1).
BAD_OUTCOMES = frozenset({Outcome.FAILED, Outcome.ERRORED, Outcome.STALE})


class RequirementStatus(enum.StrEnum):
    """The verdict on one requirement across every scenario that covers it."""

    PASSED = "passed"
    FAILED = "failed"
    ERRORED = "errored"
    XFAILED = "xfailed"
    DECLINED = "declined"  # a SHOULD the implementation's declared options decline (declined_by): a hazard, not a failure
    UNTESTED = "untested"  # no scenario covering it ran to a verdict (skipped or none)


@dataclass(frozen=True, slots=True, kw_only=True)
class StepFailure:
    """The first step whose observation differed from the expectation."""

    index: int
    action: str
    note: str
    event: Mapping[str, Any]
    mismatches: tuple[Mismatch, ...]
    breaks: tuple[str, ...]
    observed: Any = None
    source: SourceLocation | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON form used by the JSON-lines report."""
        return {
            "step": self.index,
            "action": self.action,
            "note": self.note,
            "event": dict(self.event),
            "breaks": list(self.breaks),
            "mismatches": [m.to_json() for m in self.mismatches],
            "observed": self.observed,
            "source": self.source.to_json() if self.source else None,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class ErrorDetail:
    """Why a scenario errored: the implementation's failure, and the step it happened at.

    ``kind`` is the failure's kind (what a report groups by), ``in_flight`` the request(s)
    unanswered when it failed (None when none was, e.g. an answer too malformed to compare).
    """

    kind: FailureKind
    reason: str
    detail: str = ""
    step: int | None = None  # None: while starting the scenario
    event: Mapping[str, Any] | None = None
    in_flight: InFlight | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON form used by the JSON-lines report."""
        return {"kind": self.kind.value, "reason": self.reason, "detail": self.detail, "step": self.step,
                "event": dict(self.event) if self.event is not None else None,
                "in_flight": self.in_flight.to_json() if self.in_flight is not None else None}


@dataclass(frozen=True, slots=True, kw_only=True)
class ScenarioResult:
    """The result of one scenario against one implementation.

    ``failure`` is set for failed (and xfailed-after-failing) results, ``error`` for errored
    (and xfailed-after-erroring) ones; ``reason`` explains skipped, xfailed and stale results.
    """

    id: str
    title: str
    outcome: Outcome
    path: str = ""
    profiles: tuple[str, ...] = ("activation",)
    requirements: tuple[str, ...] = ()
    failure: StepFailure | None = None
    error: ErrorDetail | None = None
    reason: str = ""
    duration: float = 0.0

    @property
    def charged(self) -> tuple[str, ...]:
        """The requirements this result counts against: the broken ones for a failure, else all."""
        return self.failure.breaks if self.failure is not None else self.requirements

    def to_json(self) -> dict[str, Any]:
        """One line of the JSON-lines report (``"type": "result"``)."""
        return {
            "type": "result",
            "id": self.id,
            "title": self.title,
            "outcome": self.outcome.value,
            "path": self.path,
            "profiles": list(self.profiles),
            "requirements": list(self.requirements),
            "reason": self.reason,
            "duration": round(self.duration, 6),
            "failure": self.failure.to_json() if self.failure else None,
            "error": self.error.to_json() if self.error else None,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class RequirementTally:
    """Counts of scenario outcomes charged to one requirement, and the verdict."""

    requirement: Requirement
    counts: Mapping[str, int] = field(default_factory=dict)
    declined: str = ""  # the declared values that decline it (``state_scope: instance``); '' when not declined

    @property
    def status(self) -> RequirementStatus:
        """Errored beats failed beats declined beats xfailed beats passed; nothing conclusive is untested.

        A declined SHOULD is not tested (its scenarios require other values and are skipped);
        should a failure still be charged to it, the failure is what the report says.
        """
        for outcome, status in ((Outcome.ERRORED, RequirementStatus.ERRORED), (Outcome.FAILED, RequirementStatus.FAILED)):
            if self.counts.get(outcome.value):
                return status
        if self.declined:
            return RequirementStatus.DECLINED
        for outcome, status in ((Outcome.XFAILED, RequirementStatus.XFAILED), (Outcome.PASSED, RequirementStatus.PASSED)):
            if self.counts.get(outcome.value):
                return status
        return RequirementStatus.UNTESTED

    def to_json(self) -> dict[str, Any]:
        """The JSON form inside the summary object (``declined_by``: the declared values that decline it)."""
        r = self.requirement
        doc = {"level": r.level, "profile": r.profile, "title": r.title, "status": self.status.value,
               **{o.value: self.counts.get(o.value, 0) for o in Outcome}}
        if self.declined:
            doc["declined_by"] = self.declined
        return doc


def _tally(results: Iterable[ScenarioResult]) -> dict[str, Counter[str]]:
    """Outcome counts per requirement; a stale scenario passed, so it counts as passed."""
    tallies: dict[str, Counter[str]] = {}
    for result in results:
        outcome = Outcome.PASSED if result.outcome is Outcome.STALE else result.outcome
        for requirement in result.charged:
            tallies.setdefault(requirement, Counter())[outcome.value] += 1
    return tallies


@dataclass(frozen=True, slots=True, kw_only=True)
class Summary:
    """Counts by outcome, a tally per requirement and verdict counts per RFC 2119 level."""

    counts: Mapping[str, int]
    requirements: tuple[RequirementTally, ...]
    levels: Mapping[str, Mapping[str, int]]

    @classmethod
    def of(cls, results: Iterable[ScenarioResult], requirements: Mapping[str, Requirement],
           profiles: Iterable[str], declared: Options | None = None, *, later: Collection[str] = ()) -> Summary:
        """Summarise ``results``; ``requirements`` of the ``profiles`` in play are listed even when untested.

        ``declared`` is the implementation's disclosure declaration (None when the disclosure
        profile is not in play): a SHOULD whose ``declined_by`` it meets is declined. ``later``:
        the requirements of spec versions after the one run, neither listed nor judged.
        """
        results = list(results)
        tallies = {r: counts for r, counts in _tally(results).items() if r not in later}
        wanted = set(profiles)
        ids = [r for r, req in requirements.items() if req.profile in wanted and r not in later]
        ids += sorted(set(tallies) - set(ids))

        def tally(rid: str) -> RequirementTally:
            requirement = requirements.get(rid) or Requirement(id=rid)
            declined = requirement.declining(declared) if declared and requirement.declined_under(declared) else ""
            return RequirementTally(requirement=requirement, counts=dict(tallies.get(rid, {})), declined=declined)

        rows = tuple(tally(r) for r in ids)
        levels: dict[str, Counter[str]] = {}
        for row in rows:
            levels.setdefault(row.requirement.level, Counter())[row.status.value] += 1
        counts = Counter(r.outcome.value for r in results)
        return cls(counts={o.value: counts.get(o.value, 0) for o in Outcome}, requirements=rows,
                   levels={level: {s.value: c.get(s.value, 0) for s in RequirementStatus} for level, c in levels.items()})

    def to_json(self) -> dict[str, Any]:
        """The summary's JSON form (without the run's implementation and exit code)."""
        return {"counts": dict(self.counts),
                "requirements": {t.requirement.id: t.to_json() for t in self.requirements},
                "levels": {level: dict(c) for level, c in self.levels.items()}}


class StopKind(enum.StrEnum):
    """Why a run ended before every selected scenario ran."""

    SIGNAL = "signal"  # SIGINT, SIGTERM or SIGHUP
    TIME = "time"  # --max-time reached
    FAIL_FAST = "fail-fast"  # -x: the first failure or error
    START_FAILURES = "start-failures"  # the implementation failed to start or say hello N times in a row
    REPEATED = "repeated"  # N scenarios in a row hung or crashed the same way
    NOTHING_TO_TEST = "nothing-to-test"  # no selected profile is claimed by the implementation


@dataclass(frozen=True, slots=True, kw_only=True)
class Stop:
    """Why a run stopped early, in one sentence; ``signal`` is the signal number for SIGNAL."""

    kind: StopKind
    message: str
    signal: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON form inside the summary (``"stopped"``)."""
        return {"kind": self.kind.value, "message": self.message, "signal": self.signal}


@dataclass(frozen=True, slots=True, kw_only=True)
class RunResult:
    """A whole run: who was tested, every scenario result in order, and the summary.

    ``info`` is None when the implementation never said hello; ``interrupted`` when the run
    was stopped by a signal before every scenario ran; ``stop`` says why any early stop
    happened (the scenarios that did not run are skipped results whose reason says so).
    ``spec_version`` is the spec version (major.minor) whose requirements the summary judges.
    """

    info: ImplementationInfo | None
    results: tuple[ScenarioResult, ...]
    summary: Summary
    profiles: tuple[str, ...] = ()
    spec_version: str = ""
    interrupted: bool = False
    duration: float = 0.0
    stop: Stop | None = None

    @property
    def ok(self) -> bool:
        """True when every scenario ran and nothing failed, errored or went stale (xfailed and skipped are fine)."""
        return not self.interrupted and self.stop is None and not self.bad

    @property
    def bad(self) -> bool:
        """True when a scenario failed, errored or went stale."""
        return any(r.outcome in BAD_OUTCOMES for r in self.results)

    def to_json(self) -> dict[str, Any]:
        """The final line of the JSON-lines report (``"type": "summary"``), without the command's exit code."""
        return {
            "type": "summary",
            "implementation": self.info.to_json() if self.info else None,
            "profiles": list(self.profiles),
            "spec_version": self.spec_version,
            "total": len(self.results),
            **self.summary.to_json(),
            "interrupted": self.interrupted,
            "stopped": self.stop.to_json() if self.stop else None,
            "duration": round(self.duration, 6),
        }
