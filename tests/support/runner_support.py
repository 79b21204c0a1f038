"""Shared helpers for the runner tests: where things are, and small in-process implementations."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from conformance.suite.scenario import SUITE_DIR, Scenario, load_scenario, load_suite, scenario_files
from reference_impl.engine import Engine
from support.fakes import FAKES as FAKES  # re-exported: the runner tests import both from here
from support.fakes import load_fake as load_fake

ROOT = Path(__file__).resolve().parents[2]
OWN_SCENARIOS = ROOT / "tests" / "conformance" / "suite" / "scenarios"
# Fakes that cannot run in-process (no in-process timeout): exercised by the stdio tests.
IN_PROCESS_UNSAFE = {"broken_hangs"}


def suite_paths() -> list[Path]:
    """The bundled suite once it has scenarios, else this folder's own small scenarios."""
    return [SUITE_DIR] if scenario_files([SUITE_DIR]) else [OWN_SCENARIOS]


def own(name: str) -> Scenario:
    """One of tests/conformance/suite/scenarios by file stem; fails the test when it does not load."""
    scenario, problems = load_scenario(OWN_SCENARIOS / f"{name}.yaml")
    assert scenario is not None, problems
    return scenario


def own_suite() -> list[Scenario]:
    """Every scenario of tests/conformance/suite/scenarios."""
    scenarios, problems = load_suite([OWN_SCENARIOS])
    assert not problems, problems
    return scenarios


def broken_fakes() -> list[str]:
    """Module names of tests/fakes/broken_*.py that can run in-process."""
    return sorted(p.stem for p in FAKES.glob("broken_*.py") if p.stem not in IN_PROCESS_UNSAFE)




class ActivationOnly(Engine):
    """The reference without text, claiming only the activation profile."""

    info = replace(Engine.info, name="activation-only", profiles=("activation",))

    def __init__(self) -> None:
        super().__init__(text=False)


class Scripted:
    """A Scheduler whose ``apply`` answers are scripted: callables of the event, or values."""

    def __init__(self, *answers: Any, profiles: tuple[str, ...] = ("activation",)) -> None:
        self.info = replace(Engine.info, name="scripted", profiles=profiles)
        self.answers = list(answers)
        self.started = 0

    def start(self, manifests: Any, host: Any) -> None:
        """Count the starts."""
        self.started += 1

    def apply(self, event: Any) -> Any:
        """The next scripted answer (called with the event when callable)."""
        answer = self.answers.pop(0)
        return answer(event) if callable(answer) else answer
