"""``pas coverage`` and the traceability model behind it."""

from __future__ import annotations

import json

from support.runner_support import OWN_SCENARIOS, own_suite

from conformance.cli.main import main
from conformance.suite.coverage import check_coverage, load_requirements
from conformance.suite.results import Requirement
from reference_impl.model import Profile

REQUIREMENTS = {
    "ACT-COUNT-2": Requirement(id="ACT-COUNT-2", level="MUST", profile="activation"),
    "ACT-STATE-3": Requirement(id="ACT-STATE-3", level="MUST", profile="activation"),
    "ACT-ORDER-1": Requirement(id="ACT-ORDER-1", level="SHOULD", profile="activation"),
    "TXT-BLOCK-2": Requirement(id="TXT-BLOCK-2", level="MUST", profile="text"),
    "HOST-LOAD-1": Requirement(id="HOST-LOAD-1", level="MUST", profile="host"),
}


def test_scenario_and_step_level_citations_are_both_counted():
    coverage = check_coverage(own_suite(), REQUIREMENTS, ("activation",))
    rows = {row.requirement.id: row for row in coverage.rows}
    assert rows["ACT-COUNT-2"].scenarios == ("runner-count-three-runs",)
    step_only = rows["ACT-STATE-3"].citations
    assert [(c.scenario, c.step) for c in step_only] == [("runner-count-three-runs", 0)]


def test_only_the_requested_profiles_are_checked():
    coverage = check_coverage(own_suite(), REQUIREMENTS, ("text",))
    assert [row.requirement.id for row in coverage.rows] == ["TXT-BLOCK-2"]
    assert coverage.uncovered == ()


def test_an_uncited_requirement_is_uncovered():
    coverage = check_coverage(own_suite(), REQUIREMENTS, (Profile.ACTIVATION, Profile.TEXT))
    assert [r.id for r in coverage.uncovered] == ["ACT-ORDER-1"]
    assert not coverage.ok


def test_a_cited_id_missing_from_the_requirements_is_reported_as_unknown():
    coverage = check_coverage(own_suite(), REQUIREMENTS, ("text",))
    assert "ACT-EXTEND-6" in coverage.unknown
    assert coverage.unknown["ACT-EXTEND-6"][0].scenario == "runner-extend-cap"


def test_the_shipped_requirements_load_with_levels_and_profiles():
    requirements, problems = load_requirements()
    assert problems == ()
    assert requirements["ACT-ELIG-1"].level == "MUST" and requirements["ACT-ELIG-1"].profile == "activation"
    assert {r.level for r in requirements.values()} <= {"MUST", "SHOULD", "SHOULD NOT", "MAY"}


def test_an_unreadable_requirements_file_gives_problems_not_an_exception(tmp_path):
    requirements, problems = load_requirements(tmp_path / "nothing.yaml")
    assert requirements == {} and problems[0].code == "unreadable"


def test_the_command_exits_one_when_the_runner_scenarios_leave_requirements_uncovered(capsys):
    code = main(["coverage", "--scenario", str(OWN_SCENARIOS)])
    out = capsys.readouterr().out
    assert code == 1
    assert "ACT-EXTEND-6" in out and "runner-extend-cap" in out
    assert "uncovered" in out.splitlines()[-1]


def test_the_command_writes_json(capsys):
    code = main(["coverage", "--scenario", str(OWN_SCENARIOS), "--profile", "text", "--format", "json"])
    document = json.loads(capsys.readouterr().out)
    assert code == 1  # TXT requirements other than TXT-BLOCK-2 are uncovered
    assert document["profiles"] == ["text"]
    row = next(r for r in document["requirements"] if r["id"] == "TXT-BLOCK-2")
    assert row["scenarios"] == ["runner-text-sleeping-block"]


def test_the_command_shows_step_citations_as_id_and_step(capsys):
    main(["coverage", "--scenario", str(OWN_SCENARIOS)])
    line = next(row for row in capsys.readouterr().out.splitlines() if row.startswith("ACT-STATE-3 "))
    assert "runner-count-three-runs#0" in line


def test_the_command_exits_zero_when_every_requirement_of_the_profile_is_covered(capsys, tmp_path):
    scenario = tmp_path / "one.yaml"
    ids = [r for r, req in load_requirements()[0].items() if req.profile == "activation"]
    scenario.write_text(f"id: all\ntitle: cites everything\ncovers: {json.dumps(ids)}\nsteps:\n  - run: null\n")
    assert main(["coverage", "--scenario", str(scenario), "--profile", "activation"]) == 0


def test_a_missing_scenario_path_is_a_usage_error(capsys, tmp_path):
    assert main(["coverage", "--scenario", str(tmp_path / "none.yaml")]) == 2
    assert "none.yaml" in capsys.readouterr().err
