"""Traceability: which scenarios (and which of their steps) cover each requirement.

Requirements come from spec/requirements.yaml; a scenario covers a requirement when its
``covers`` names it (scenario level) or one of its steps' ``covers`` does (step level).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from conformance.suite.requirements import Requirement
from conformance.suite.requirements import load_requirements as load_requirements  # where callers found it first
from conformance.suite.scenario import Scenario
from reference_impl.model import Profile

DEFAULT_PROFILES = tuple(Profile)


@dataclass(frozen=True, slots=True, kw_only=True)
class Citation:
    """One place a scenario names a requirement: the scenario itself or one of its steps."""

    scenario: str
    step: int | None = None  # None: the scenario's own ``covers``
    path: str = ""

    def to_json(self) -> dict[str, Any]:
        """``{"scenario": id, "step": index or null}``."""
        return {"scenario": self.scenario, "step": self.step}


@dataclass(frozen=True, slots=True, kw_only=True)
class RequirementCoverage:
    """A requirement and every citation of it."""

    requirement: Requirement
    citations: tuple[Citation, ...] = ()

    @property
    def scenarios(self) -> tuple[str, ...]:
        """The ids of the scenarios citing the requirement, without repeats."""
        return tuple(dict.fromkeys(c.scenario for c in self.citations))

    def to_json(self) -> dict[str, Any]:
        """The coverage command's JSON row."""
        r = self.requirement
        return {"id": r.id, "level": r.level, "profile": r.profile, "title": r.title,
                "scenarios": list(self.scenarios),
                "steps": [c.to_json() for c in self.citations if c.step is not None]}


@dataclass(frozen=True, slots=True, kw_only=True)
class Coverage:
    """Coverage of the requirements of some profiles by a set of scenarios.

    ``unknown`` maps requirement ids that scenarios cite but spec/requirements.yaml does not
    define to their citations.
    """

    profiles: tuple[str, ...]
    rows: tuple[RequirementCoverage, ...]
    unknown: Mapping[str, tuple[Citation, ...]]

    @property
    def uncovered(self) -> tuple[Requirement, ...]:
        """Requirements of the requested profiles that no scenario cites."""
        return tuple(row.requirement for row in self.rows if not row.citations)

    @property
    def ok(self) -> bool:
        """True when every requirement is covered and every cited id exists."""
        return not self.uncovered and not self.unknown

    def to_json(self) -> dict[str, Any]:
        """The coverage command's JSON document."""
        return {"profiles": list(self.profiles), "requirements": [row.to_json() for row in self.rows],
                "uncovered": [r.id for r in self.uncovered],
                "unknown": {r: [c.to_json() for c in cs] for r, cs in self.unknown.items()}}


def _citations(scenarios: Iterable[Scenario]) -> dict[str, list[Citation]]:
    found: dict[str, list[Citation]] = {}
    for scenario in scenarios:
        for requirement in scenario.covers:
            found.setdefault(requirement, []).append(Citation(scenario=scenario.id, path=scenario.path))
        for step in scenario.steps:
            for requirement in step.covers:
                found.setdefault(requirement, []).append(Citation(scenario=scenario.id, step=step.index, path=scenario.path))
    return found


def check_coverage(scenarios: Iterable[Scenario], requirements: Mapping[str, Requirement],
                   profiles: Iterable[str] = DEFAULT_PROFILES) -> Coverage:
    """Which ``scenarios`` cover each requirement of ``profiles``; unknown cited ids too."""
    profiles = tuple(profiles)
    citations = _citations(scenarios)
    rows = tuple(RequirementCoverage(requirement=req, citations=tuple(citations.get(rid, ())))
                 for rid, req in requirements.items() if req.profile in profiles)
    unknown = {rid: tuple(cs) for rid, cs in sorted(citations.items()) if rid not in requirements}
    return Coverage(profiles=profiles, rows=rows, unknown=unknown)
