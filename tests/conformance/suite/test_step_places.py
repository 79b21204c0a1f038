"""Where a step was written is found only when something asks: loading a clean scenario file reads no line marks."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest
from support.runner_support import load_fake

from conformance.adapters.inprocess import InProcessAdapter
from conformance.documents import events
from conformance.documents.yamldoc import Place
from conformance.report.text import failure_text
from conformance.suite.results import Outcome
from conformance.suite.runner import run_scenario
from conformance.suite.scenario import load_scenario, load_suite
from reference_impl.model import Profile
from reference_impl.problems import SourceLocation

# A description starting with `code` (in a block scalar), as many bundled scenarios have: the fast path reads it.
SCENARIO = """\
id: places-three-runs
title: Activated for three runs
description: >-
  `weather` is activated for three runs; the activation run does not count.
covers: [ACT-COUNT-2]
plugins:
  - fixture: weather
steps:
  - activate: {module_name: weather, rounds: 3}
    expect: {outcome: activated, rounds: 3, ends_step: true}

  - run: null
    note: the activation run did not count
    expect:
      weather: {state: active, rounds_left: 3}
"""
RUN_STEP = (12, 5)  # line and column of "- run: null" (its mapping starts after the dash)


@pytest.fixture
def event_loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths the event loader (the only reader that records line marks) is run on, from now on."""
    calls: list[str] = []
    parse = events.parse_events

    def counted(text: str, path: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(path)
        return parse(text, path, *args, **kwargs)

    monkeypatch.setattr(events, "parse_events", counted)
    return calls


def _file(tmp_path: Path, text: str = SCENARIO) -> Path:
    path = tmp_path / "places.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_loading_a_clean_scenario_file_runs_no_event_loader(tmp_path, event_loads):
    path = _file(tmp_path)
    scenario, problems = load_scenario(path)
    assert problems == [] and scenario is not None
    assert all(isinstance(step.at, Place) for step in scenario.steps)
    assert event_loads == []


def test_a_step_finds_its_line_when_asked_reading_its_file_once(tmp_path, event_loads):
    path = _file(tmp_path)
    scenario, _ = load_scenario(path)
    assert scenario is not None
    where = scenario.steps[1].source
    assert (where.path, where.line, where.column) == (str(path), *RUN_STEP)
    assert scenario.steps[0].source.line == 9
    assert event_loads == [str(path)]  # both steps' lines from one reading


def test_a_loaded_scenario_travels_between_processes_and_still_finds_its_lines(tmp_path):
    path = _file(tmp_path)
    scenario, _ = load_scenario(path)
    copy = pickle.loads(pickle.dumps(scenario))
    assert copy == scenario
    assert (copy.steps[1].source.line, copy.steps[1].source.column) == RUN_STEP


def test_a_failing_step_is_reported_at_the_line_it_was_written_on(tmp_path):
    path = _file(tmp_path)
    scenario, _ = load_scenario(path)
    adapter = InProcessAdapter(load_fake("broken_counts_activation_run").create, name="broken")
    result = run_scenario(adapter, scenario, profiles=(Profile.ACTIVATION,))
    assert result.outcome is Outcome.FAILED and result.failure is not None
    assert (result.failure.source.line, result.failure.source.column) == RUN_STEP
    assert f"places.yaml:{RUN_STEP[0]}:{RUN_STEP[1]}, step 1 (run)" in failure_text(result)
    assert result.failure.to_json()["source"] == {"path": str(path), "line": RUN_STEP[0], "column": RUN_STEP[1]}


def test_a_file_the_event_loader_read_knows_its_lines_at_once(tmp_path):
    # A float with an exponent keeps a file off the fast path (only the text tells 2.5 from 25e-1 or 2.50):
    # nothing is left for later.
    path = _file(tmp_path, SCENARIO.replace("rounds: 3}", "rounds: 25e-1}", 1))
    scenario, problems = load_scenario(path)
    assert problems == [] and scenario is not None
    assert [type(step.at) for step in scenario.steps] == [SourceLocation, SourceLocation]
    assert (scenario.steps[1].source.line, scenario.steps[1].source.column) == RUN_STEP


def test_a_bad_scenario_file_still_gets_every_problem_with_line_column_and_pointer(tmp_path, event_loads):
    path = _file(tmp_path, SCENARIO.replace("rounds: 3}\n    expect", "rounds: 3}\n    expectation: 1\n    expect", 1))
    scenario, problems = load_scenario(path)
    assert scenario is None
    assert [(p.code, p.pointer, p.source) for p in problems] == [
        ("schema", "/steps/0/expectation", SourceLocation(path=str(path), line=10, column=5))]
    assert event_loads == [str(path)]  # the fast path read it; its marks were found for the problem


def test_a_scenario_with_a_yaml_problem_still_gets_line_and_column(tmp_path):
    path = _file(tmp_path, SCENARIO.replace("  - run: null\n", "  - run: null\n  run: again\n", 1))
    scenario, problems = load_scenario(path)
    assert scenario is None
    assert [(p.source.path, p.source.line, p.source.column is not None) for p in problems] == [(str(path), 13, True)]


def test_the_bundled_suite_reads_most_files_without_line_marks(event_loads):
    scenarios, problems = load_suite()
    assert problems == []
    marked = {step.at.path for s in scenarios for step in s.steps if isinstance(step.at, SourceLocation)}
    assert set(event_loads) == marked  # the event loader ran on exactly the files the fast path declined
    assert len(marked) < len(scenarios) // 4  # and the fast path read most of them
