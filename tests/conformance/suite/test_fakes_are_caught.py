"""Suite strength: every deliberately broken implementation fails at least one scenario.

The runner must also come back normally from each of them, with a result for every
scenario. The whole bundled suite is used once it exists; tests/conformance/suite/scenarios must
catch every fake on its own too.
"""

from __future__ import annotations

import pytest
from support.runner_support import broken_fakes, load_fake, own_suite, suite_paths

from conformance.adapters.inprocess import InProcessAdapter, reference_adapter
from conformance.cli.exit_status import run_exit_code
from conformance.suite.results import Outcome
from conformance.suite.runner import run_suite
from conformance.suite.scenario import Scenario, load_suite

CAUGHT = {Outcome.FAILED, Outcome.ERRORED}


@pytest.fixture(scope="module")
def suite() -> list[Scenario]:
    scenarios, problems = load_suite(suite_paths())
    assert not problems, problems
    return scenarios


def test_there_is_a_broken_implementation_for_each_bug_the_suite_must_catch():
    assert len(broken_fakes()) >= 10


def test_the_reference_passes_the_whole_suite(suite):
    # under its default declaration; the disclosure scenarios that need other options are not
    # applicable (test_disclosure_suite.py runs them under every declaration)
    run = run_suite(reference_adapter(), suite)
    failing = [(r.id, r.outcome.value) for r in run.results if r.outcome is not Outcome.PASSED
               and not r.reason.startswith("not applicable under the declared options")]
    assert failing == []
    assert run.ok


@pytest.mark.parametrize("fake", broken_fakes())
def test_the_suite_catches_each_broken_implementation(suite, fake):
    run = run_suite(InProcessAdapter(load_fake(fake).create, name=fake), suite)
    assert len(run.results) == len(suite) and not run.interrupted
    assert any(r.outcome in CAUGHT for r in run.results), f"{fake} passes every scenario"
    assert run.bad and run_exit_code(run) == 1


@pytest.mark.parametrize("fake", broken_fakes())
def test_the_runner_scenarios_alone_catch_each_broken_implementation(fake):
    run = run_suite(InProcessAdapter(load_fake(fake).create, name=fake), own_suite())
    assert any(r.outcome in CAUGHT for r in run.results), f"{fake} passes every runner scenario"
