"""``conformance.tools.simulate.simulation.simulate``: a frozen result, problems as data, the engine's observations."""

from __future__ import annotations

import dataclasses

import pytest

from conformance.tools.simulate.simulation import simulate
from reference_impl.events import CallObservation, RunObservation
from reference_impl.model import OutcomeKind, PluginState


def test_simulate_returns_a_frozen_result_with_one_step_per_event_command():
    result = simulate("run; conversation x; activate weather; run")
    assert result.ok
    assert [type(s.observation) for s in result.steps] == [RunObservation, CallObservation, RunObservation]
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.steps = ()


def test_the_observations_are_the_reference_engines():
    result = simulate("activate weather 2 in a; run a; run b")
    activated, run_a, run_b = (s.observation for s in result.steps)
    assert activated.outcome is OutcomeKind.ACTIVATED and activated.rounds == 2
    weather = {v.module_name: v for v in run_a.plugins}["weather"]
    assert (weather.state, weather.rounds_left) == (PluginState.ACTIVE, 2)
    assert {v.module_name: v for v in run_b.plugins}["weather"].state is PluginState.SLEEPING


def test_text_is_rendered_only_when_asked():
    assert simulate("run").steps[0].observation.text is None
    assert "<plugin " in simulate("run", text=True).steps[0].observation.text


def test_input_problems_are_returned_not_raised_and_nothing_runs(tmp_path):
    result = simulate("run; bogus", plugins=tmp_path / "missing", host=tmp_path)
    assert not result.ok and result.steps == ()
    assert [p.code for p in result.problems] == ["path-not-found", "unreadable"]
    assert [p.code for p in result.script_problems] == ["unknown-command"]


def test_warnings_do_not_stop_the_simulation(tmp_path):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "a.yaml").write_text("name: A\nmodule_name: a\nversion: 1.0.0\ndescription: d\n", encoding="utf-8")
    (tmp_path / "host.yaml").write_text("enabled: [a]\nstrategies: {ghost: forbid_sleep}\n", encoding="utf-8")
    result = simulate("run", plugins=tmp_path / "p", host=tmp_path / "host.yaml")
    assert result.ok and len(result.steps) == 1
    assert [(p.code, p.severity.value, p.pointer) for p in result.problems] == [
        ("unknown-plugin", "warning", "/strategies/ghost")
    ]
