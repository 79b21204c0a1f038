"""Which requirement each single-bug fake breaks, and what the suite blames when it runs on it.

A single-bug fake says the requirement its bug breaks on a docstring line ``Breaks: ID``.
:func:`measure` runs the bundled suite on each such fake and collects the requirements its
failed scenarios blame (``StepFailure.breaks``), leaving out scenarios that fail on the
reference too (a scenario being edited is not the fake's fault). A fake of the ``host``
family runs with the host profile, one of the disclosure family with the disclosure profile
(under the options it declares), the others with activation and text. Used by
tests/conformance/suite/test_attribution_fakes.py and bench/attribution.py.

The fakes written for this measurement are named ``single_*.py``: tests/conformance/suite's own small
scenarios must catch every ``broken_*.py`` fake, and these need the bundled suite.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from conformance.adapters.inprocess import InProcessAdapter, reference_adapter
from conformance.suite.results import Outcome
from conformance.suite.runner import run_suite
from conformance.suite.scenario import Scenario
from reference_impl.model import Profile
from support.bundled import bundled_suite
from support.fakes import FAKES, load_fake

#: At most this many requirements besides the named one may be blamed.
MAX_OTHERS = 2
_BREAKS = re.compile(r"^Breaks: ((?:ACT|TXT|HOST|DISC)-[A-Z]+-\d+)\s*$", re.M)


@dataclass(frozen=True, slots=True, kw_only=True)
class Attribution:
    """One fake: the requirement it names, what the suite blamed, and the scenarios that failed."""

    fake: str
    named: str
    blamed: tuple[str, ...]
    failed: tuple[str, ...]

    @property
    def others(self) -> tuple[str, ...]:
        """The blamed requirements other than the named one."""
        return tuple(b for b in self.blamed if b != self.named)

    @property
    def ok(self) -> bool:
        """The named requirement is blamed, with at most MAX_OTHERS others."""
        return self.named in self.blamed and len(self.others) <= MAX_OTHERS




def named_requirement(path: Path) -> str | None:
    """The ``Breaks:`` line of a fake's module docstring, read without importing it."""
    import ast

    found = _BREAKS.search(ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or "")
    return found[1] if found else None


def single_bug_fakes() -> dict[str, str]:
    """Every fake with a ``Breaks:`` line: file stem -> requirement ID."""
    named = {path.stem: named_requirement(path) for path in sorted(FAKES.glob("*.py"))}
    return {stem: requirement for stem, requirement in named.items() if requirement}


def _profiles(requirement: str) -> tuple[str, ...]:
    if requirement.startswith("DISC-"):
        return ("disclosure",)
    return (Profile.HOST,) if requirement.startswith("HOST-") else (Profile.ACTIVATION, Profile.TEXT)


def measure(fakes: Iterable[str] | None = None, suite: list[Scenario] | None = None) -> list[Attribution]:
    """Run the bundled suite on each single-bug fake (all of them unless ``fakes``) and collect the blame."""
    if suite is None:
        suite, problems = bundled_suite()
        assert not problems, problems
    all_named = single_bug_fakes()
    reference = run_suite(reference_adapter(), suite, profiles=tuple(Profile))
    broken_anyway = {r.id for r in reference.results if r.outcome in (Outcome.FAILED, Outcome.ERRORED)}
    found = []
    for fake in fakes if fakes is not None else all_named:
        named = all_named[fake]
        run = run_suite(InProcessAdapter(load_fake(fake).create, name=fake), suite, profiles=_profiles(named))
        failed = [r for r in run.results if r.outcome is Outcome.FAILED and r.id not in broken_anyway]
        blamed = dict.fromkeys(b for r in failed for b in r.failure.breaks)
        found.append(Attribution(fake=fake, named=named, blamed=tuple(sorted(blamed)), failed=tuple(r.id for r in failed)))
    return found
