"""The host scenarios of the bundled suite: enough of them, covering every HOST requirement,
passed by the reference in-process and over stdio with identical observations."""

from __future__ import annotations

import sys

import pytest
from support.bundled import bundled_suite

from conformance.adapters.inprocess import InProcessAdapter, reference_adapter
from conformance.adapters.stdio import StdioAdapter
from conformance.cli.main import main
from conformance.suite.coverage import DEFAULT_PROFILES, check_coverage, load_requirements
from conformance.suite.results import Outcome
from conformance.suite.runner import run_suite
from conformance.suite.scenario import SUITE_DIR, load_suite
from reference_impl.engine import Engine
from reference_impl.host import HostEngine

HOST_DIR = SUITE_DIR / "host"
SERVE = [sys.executable, "-m", "conformance", "serve-reference"]


@pytest.fixture(scope="module")
def host_suite():
    scenarios, problems = load_suite([HOST_DIR], check_schema=True)
    assert not problems, [str(p) for p in problems]
    return scenarios


def test_the_suite_has_at_least_thirty_host_scenarios_each_claiming_only_the_host_profile(host_suite) -> None:
    assert len(host_suite) >= 30
    assert {s.profiles for s in host_suite} == {("host",)}
    assert all(s.is_host and s.steps[0].action == "host_load" for s in host_suite)


def test_every_host_requirement_is_covered_by_at_least_two_scenarios(host_suite) -> None:
    requirements, _ = load_requirements()
    coverage = check_coverage(host_suite, requirements, ("host",))
    assert coverage.ok
    assert {row.requirement.id: len(row.scenarios) for row in coverage.rows if len(row.scenarios) < 2} == {}


def test_pas_coverage_checks_every_profile_by_default_and_passes(capsys) -> None:
    assert DEFAULT_PROFILES == ("activation", "text", "host", "disclosure")
    assert main(["coverage"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith("requirements covered (activation, text, host, disclosure)")


def test_pas_coverage_of_the_host_profile_passes_on_the_host_folder_alone(capsys) -> None:
    assert main(["coverage", "--profile", "host", "--scenario", str(HOST_DIR)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "26 of 26 requirements covered (host)"


def test_the_reference_engine_claims_the_host_profile_and_passes_every_host_scenario(host_suite) -> None:
    assert "host" in Engine.info.profiles
    run = run_suite(reference_adapter(), host_suite)
    assert [(r.id, r.outcome.value) for r in run.results if r.outcome is not Outcome.PASSED] == []


def test_the_host_only_reference_passes_every_host_scenario_and_skips_the_rest() -> None:
    scenarios, _ = bundled_suite()
    run = run_suite(InProcessAdapter(HostEngine, name="HostEngine"), scenarios)
    outcomes = {r.id: r.outcome for r in run.results}
    host_ids = {s.id for s in scenarios if "host" in s.profiles}
    assert {i for i, o in outcomes.items() if o is Outcome.PASSED} == host_ids
    assert {i for i, o in outcomes.items() if o is Outcome.SKIPPED} == set(outcomes) - host_ids
    assert run.ok


@pytest.fixture(scope="module")
def remote():
    """The reference over stdio, every message checked against its schema."""
    with StdioAdapter(SERVE, timeout=10.0, check_messages=True) as adapter:
        yield adapter


@pytest.mark.slow
def test_the_reference_over_stdio_passes_every_host_scenario(remote, host_suite) -> None:
    run = run_suite(remote, host_suite)
    assert "host" in run.info.profiles
    assert [(r.id, r.outcome.value) for r in run.results if r.outcome is not Outcome.PASSED] == []


@pytest.mark.slow
def test_over_stdio_every_host_step_observes_exactly_what_the_engine_observes(remote, host_suite) -> None:
    engine = Engine()  # one engine for all: host-load forgets the previous scenario
    for scenario in host_suite:
        for step in scenario.steps:
            assert remote.send(step.event) == engine.apply(step.event).to_json(), (scenario.id, step.pointer)
