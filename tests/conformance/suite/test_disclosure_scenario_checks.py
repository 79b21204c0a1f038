"""A disclosure scenario file: what the loader builds of it, and every rule beyond its schema, reported at file:line."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.suite.disclosure_checks import option_problems
from conformance.suite.requirements import Requirement
from conformance.suite.scenario import load_scenario
from reference_impl.disclosure_commands import DisclosureStart, LoadCall, ModelStep, Request, Tool

HEAD = """\
id: disc-example
title: An example
covers: [DISC-LOAD-1]
profiles: [disclosure]
tools:
- {name: weather, description: Weather}
- {name: clock, description: Time, always_visible: true}
"""


def _load(tmp_path: Path, text: str):
    path = tmp_path / "disc-example.yaml"
    path.write_text(text, encoding="utf-8")
    return load_scenario(path)


def _problems(tmp_path: Path, text: str) -> list[tuple[str, int | None, str]]:
    scenario, problems = _load(tmp_path, text)
    assert scenario is None
    return [(p.code, p.source.line if p.source else None, p.pointer) for p in problems]


def test_a_disclosure_scenario_opens_with_its_catalogue_and_reads_its_steps(tmp_path):
    scenario, problems = _load(tmp_path, HEAD + "requires: {batch: [true]}\nsteps:\n- {request: null}\n"
                               "- model_step: [{load: [weather, nope]}]\n  shown: [clock, weather]\n"
                               "  answers:\n  - results: [{name: weather, outcome: loaded}, {name: nope, outcome: not_found}]\n")
    assert problems == []
    assert scenario.is_disclosure and scenario.requires == {"batch": (True,)}
    assert scenario.opening == DisclosureStart(tools=(Tool(name="weather", description="Weather"),
                                                      Tool(name="clock", description="Time", always_visible=True)))
    assert [s.event for s in scenario.steps] == [Request(), ModelStep(calls=(LoadCall(names=("weather", "nope"),
                                                                                      several=True),))]
    assert scenario.steps[1].answers[0]["results"][1]["outcome"] == "not_found"


def test_a_model_step_without_an_open_request_is_reported_at_its_line(tmp_path):
    text = HEAD + "steps:\n- {request: a}\n- {end_request: a}\n- model_step: {thread: a, calls: [{list: null}]}\n"
    assert _problems(tmp_path, text) == [("no-open-request", 11, "/steps/2")]


def test_a_rebuild_ends_every_open_request(tmp_path):
    text = HEAD + "steps:\n- {request: null}\n- {rebuild: kept}\n- model_step: [{load: weather}]\n"
    assert _problems(tmp_path, text) == [("no-open-request", 11, "/steps/2")]


def test_a_disclosure_step_needs_the_profile_and_the_catalogue(tmp_path):
    text = "id: disc-example\ntitle: t\ncovers: [DISC-CAT-1]\nsteps:\n- {request: null}\n"
    assert [code for code, _, _ in _problems(tmp_path, text)] == ["disclosure-profile-missing", "disclosure-tools-missing"]


def test_activation_steps_in_a_disclosure_scenario_are_reported_each(tmp_path):
    text = HEAD + "steps:\n- {request: null}\n- {run: null}\n"
    assert _problems(tmp_path, text) == [("disclosure-steps-mixed", 10, "/steps/1")]


def test_answers_off_a_model_step_and_expect_on_a_disclosure_step_are_misplaced(tmp_path):
    text = HEAD + "steps:\n- request: null\n  answers: []\n- rebuild: kept\n  shown: []\n- request: null\n  expect: {}\n"
    assert [(c, line) for c, line, _ in _problems(tmp_path, text)] == [
        ("disclosure-expectation-misplaced", 10), ("disclosure-expectation-misplaced", 11),
        ("disclosure-expectation-misplaced", 14)]


@pytest.mark.parametrize(("requires", "found"), [
    ("", ["requires-too-wide"]),
    ("requires: {batch: [true, false]}\n", ["requires-too-wide"]),
    ("requires: {batch: [true]}\n", []),
])
def test_requires_must_imply_where_a_covered_requirement_applies(tmp_path, requires, found):
    text = HEAD.replace("covers: [DISC-LOAD-1]", "covers: [DISC-LOAD-5]") + requires + "steps:\n- {request: null}\n"
    if found:
        assert [(code, line) for code, line, _ in _problems(tmp_path, text)] == [("requires-too-wide", 3)]
    else:
        assert _load(tmp_path, text)[1] == []


def test_requires_must_exclude_the_values_that_decline_a_covered_should(tmp_path):
    text = HEAD.replace("covers: [DISC-LOAD-1]", "covers: [DISC-SCOPE-2]") + \
        "requires: {state_scope: [thread, instance]}\nsteps:\n- {request: null}\n"
    (problem,) = _load(tmp_path, text)[1]
    assert (problem.code, problem.pointer) == ("requires-too-wide", "/covers/0")
    assert "declined by state_scope: instance" in problem.message


def test_a_requires_naming_an_unknown_option_or_value_is_a_schema_problem_at_its_line(tmp_path):
    for requires in ("requires: {scope: [thread]}\n", "requires: {state_scope: [galaxy]}\n"):
        problems = _problems(tmp_path, HEAD + requires + "steps:\n- {request: null}\n")
        assert problems and all(line == 8 for _, line, _ in problems), problems


def test_option_problems_read_a_set_valued_option_as_a_subset():
    rule = Requirement(id="DISC-UNLOAD-1", applies_when={"unload": ("model",)})
    assert option_problems({"unload": ("model",)}, rule) == []
    assert option_problems({"unload": ("model", "host")}, rule) != []
