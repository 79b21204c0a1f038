"""Shared helpers for the fuzz tests: the fakes, small settings, and running an emitted file."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

from conformance.adapters.inprocess import InProcessAdapter, reference_adapter
from conformance.fuzz.case import Case
from conformance.fuzz.emit import check_document, dump
from conformance.fuzz.search import FuzzOptions, FuzzResult, fuzz
from conformance.suite.results import Outcome
from conformance.suite.runner import run_scenario
from conformance.suite.scenario import Scenario, load_scenario
from reference_impl.model import Profile
from support.fakes import FAKES as FAKES  # re-exported: the fuzz tests import both from here
from support.fakes import load_fake as load_fake

ROOT = Path(__file__).resolve().parents[2]
#: Fakes that give wrong answers (each breaks a requirement): the fuzzer must find them disagreeing.
WRONG_BEHAVIOUR = (
    "broken_counts_activation_run", "broken_decrements_sleeping", "broken_extend_no_clamp",
    "broken_ignores_protected", "broken_injects_sleeping", "broken_reactivate_last_run", "broken_shared_counters",
)
#: Fakes that raise or return garbage in-process: the fuzzer must report them errored.
HOSTILE_IN_PROCESS = ("broken_raises", "broken_returns_none", "broken_returns_string")
#: One seed for every search in the tests: runs are then the same every time.
SEED = 0
REFERENCE_OVER_STDIO = f"cmd:{sys.executable} -m conformance serve-reference"




def fake_adapter(name: str) -> InProcessAdapter:
    """An in-process adapter around one of the fakes."""
    return InProcessAdapter(load_fake(name).create, name=name)


@functools.cache
def fuzz_fake(name: str, max_examples: int = 2000) -> FuzzResult:
    """Fuzz one fake in-process with the tests' seed (once per test session: results are plain data).

    The broken_* fakes are the reference with one activation rule broken; they claim every
    profile (the reference's), so the search is narrowed to activation and text, as
    ``--profile activation --profile text`` does: host and disclosure cases have tests of their own.
    """
    return fuzz(fake_adapter(name), FuzzOptions(max_examples=max_examples, seed=SEED, profiles=("activation", "text")))


def load(path: Path) -> Scenario:
    """Load a written scenario file; fails the test when it does not load."""
    scenario, problems = load_scenario(path)
    assert scenario is not None, problems
    return scenario


def loads_back(doc: dict, case: Case, folder: Path) -> Scenario:
    """Write an emitted document as a file and load it: it must be ``case`` exactly, and pass emit's checks.

    ``pas fuzz`` no longer reloads what it writes; this is where the round trip is proven.
    """
    path = folder / f"{doc['id']}.yaml"
    path.write_text(dump(doc), encoding="utf-8")
    scenario = load(path)
    assert (scenario.plugins, scenario.host) == (case.plugins, case.host)
    events = tuple(step.event for step in scenario.steps)
    assert events == case.events and repr(events) == repr(case.events)  # repr: 1, 1.0 and True differ
    assert check_document(doc, case, path=str(path), text_profile=True) == []
    return scenario


def outcome_on(adapter, scenario: Scenario) -> Outcome:
    """The runner's outcome for ``scenario`` on ``adapter``, with both profiles claimed by the fakes."""
    try:
        return run_scenario(adapter, scenario, profiles=(Profile.ACTIVATION, Profile.TEXT)).outcome
    finally:
        adapter.close()


def outcome_on_reference(scenario: Scenario) -> Outcome:
    """The runner's outcome for ``scenario`` on the reference."""
    return outcome_on(reference_adapter(), scenario)
