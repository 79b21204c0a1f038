"""The bundled conformance suite: it loads cleanly, traces to the requirements, and passes on the reference."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from conformance.suite.expectations import check_step
from conformance.suite.scenario import SUITE_DIR, Scenario, load_suite
from reference_impl.disclosure_options import closest_meeting
from reference_impl.engine import Engine
from reference_impl.model import Profile
from reference_impl.spec_files import spec_dir

SCHEDULING_PROFILES = (Profile.ACTIVATION, Profile.TEXT)
MIN_SCENARIOS = 80


def _requirements() -> Mapping[str, Mapping[str, Any]]:
    # A trusted file shipped in this repository; the hardened loader is for user input.
    with (spec_dir() / "requirements.yaml").open(encoding="utf-8") as handle:
        document = yaml.safe_load(handle)
    return {entry["id"]: entry for entry in document["requirements"]}


SUITE, SUITE_PROBLEMS = load_suite(check_schema=True)
REQUIREMENTS = _requirements()
# Asked once per distinct ``requires`` (30 among the ~300 scenarios): each call walks all 960 combinations,
# ~13 ms of CPU.
_closest_meeting = functools.cache(closest_meeting)


def _replay(scenario: Scenario) -> list[str]:
    """Every mismatch of the scenario on the reference, one readable line each.

    A disclosure scenario runs under the declaration nearest the defaults that meets its
    ``requires`` (tests/conformance/suite/test_disclosure_suite.py runs every other one too).
    """
    declared = _closest_meeting(scenario.requires)
    engine = Engine(disclosure=declared)
    engine.start(scenario.plugins, scenario.host)
    if scenario.is_disclosure:
        engine.apply(scenario.opening)
    failures = []
    for step in scenario.steps:
        observed = engine.apply(step.event).to_json()
        for mismatch in check_step(step, observed, text=True, disclosure=declared):
            failures.append(f"step {step.index} ({step.action}{': ' + step.note if step.note else ''}): {mismatch}")
    return failures


def test_the_bundled_suite_loads_without_problems_and_has_enough_scenarios() -> None:
    assert not SUITE_PROBLEMS, "\n".join(str(problem) for problem in SUITE_PROBLEMS)
    assert len(SUITE) >= MIN_SCENARIOS, f"only {len(SUITE)} scenarios; the suite needs at least {MIN_SCENARIOS}"


def test_scenarios_cover_only_requirement_ids_that_exist() -> None:
    unknown = {
        scenario.id: sorted(set(scenario.requirements) - REQUIREMENTS.keys())
        for scenario in SUITE
        if set(scenario.requirements) - REQUIREMENTS.keys()
    }
    assert not unknown, f"scenarios cover requirement IDs missing from spec/requirements.yaml: {unknown}"


def test_every_activation_and_text_requirement_is_covered_by_a_scenario() -> None:
    covered = {requirement for scenario in SUITE for requirement in scenario.requirements}
    wanted = {rid for rid, entry in REQUIREMENTS.items() if entry["profile"] in SCHEDULING_PROFILES}
    assert wanted, "spec/requirements.yaml lists no activation or text requirement"
    assert not wanted - covered, f"requirements no scenario covers: {sorted(wanted - covered)}"


def test_every_disclosure_requirement_is_covered_by_a_disclosure_scenario() -> None:
    covered = {rid for scenario in SUITE if scenario.is_disclosure for rid in scenario.requirements}
    wanted = {rid for rid, entry in REQUIREMENTS.items() if entry["profile"] == "disclosure"}
    assert len(wanted) >= 30
    assert not wanted - covered, f"requirements no disclosure scenario covers: {sorted(wanted - covered)}"


def test_scenarios_covering_text_requirements_claim_the_text_profile() -> None:
    wrong = [
        scenario.id
        for scenario in SUITE
        if any(REQUIREMENTS.get(rid, {}).get("profile") == "text" for rid in scenario.requirements)
        and "text" not in scenario.profiles
    ]
    assert not wrong, f"these scenarios cover TXT-* requirements but do not list the text profile: {wrong}"


def test_every_scenario_file_is_named_after_its_id() -> None:
    misnamed = {scenario.id: Path(scenario.path).name for scenario in SUITE if Path(scenario.path).name != f"{scenario.id}.yaml"}
    assert not misnamed, f"file names must be <id>.yaml: {misnamed}"


def test_every_scenario_lives_in_a_theme_folder_of_the_suite() -> None:
    loose = [scenario.id for scenario in SUITE if Path(scenario.path).resolve().parent == SUITE_DIR.resolve()]
    assert not loose, f"scenarios belong in a theme subfolder, not at the suite root: {loose}"


@pytest.mark.parametrize("scenario", SUITE, ids=[scenario.id for scenario in SUITE])
def test_scenario_passes_on_the_reference_implementation(scenario: Scenario) -> None:
    failures = _replay(scenario)
    assert not failures, f"{scenario.id} ({scenario.path}) fails on the reference:\n" + "\n".join(failures)
