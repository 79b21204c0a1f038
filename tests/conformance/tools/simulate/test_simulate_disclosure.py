"""``pas simulate`` with disclosure commands: the script syntax, what each model call shows, catalogues and options."""

from __future__ import annotations

import pytest

from conformance.cli.main import main
from conformance.tools.simulate.script import parse_script
from conformance.tools.simulate.simulation import simulate
from reference_impl.disclosure_answers import StepObservation, ToolsObservation
from reference_impl.disclosure_commands import (
    EndRequest,
    Idle,
    InvokeCall,
    ListCall,
    LoadCall,
    ModelStep,
    Rebuild,
    Request,
    SearchCall,
    Store,
    Trim,
)
from reference_impl.disclosure_options import Options


def _events(script: str) -> list:
    commands, problems = parse_script(script)
    assert problems == ()
    return [c.event for c in commands]


def test_each_disclosure_command_is_the_step_of_the_same_name():
    assert _events("request; request b; end b; rebuild reset; trim 2 in b; idle 30") == [
        Request(), Request(thread="b"), EndRequest(thread="b"), Rebuild(store=Store.RESET), Trim(thread="b", keep=2),
        Idle(seconds=30)]


def test_calls_joined_by_an_ampersand_are_one_model_step_in_the_thread_named_last():
    (step,) = _events("load weather calendar & search github issues & list & invoke clock in b")
    assert step == ModelStep(thread="b", calls=(LoadCall(names=("weather", "calendar"), several=True),
                                                SearchCall(query="github issues"), ListCall(), InvokeCall(name="clock")))


def test_a_conversation_setting_is_the_default_thread_too():
    assert _events("conversation b; request; load weather") == [
        Request(thread="b"), ModelStep(thread="b", calls=(LoadCall(names=("weather",)),))]


@pytest.mark.parametrize(("script", "code", "column"), [
    ("load", "missing-argument", 1), ("load a & run", "unexpected-argument", 10), ("load a in", "missing-argument", 8),
    ("trim many", "bad-value", 6), ("idle soon", "bad-value", 6), ("rebuild lost", "bad-value", 9),
])
def test_a_wrong_disclosure_command_is_a_problem_at_its_column(script, code, column):
    _, problems = parse_script(script)
    assert [(p.code, p.source.column) for p in problems] == [(code, column)]


def test_each_request_and_model_step_shows_the_next_model_calls_tool_list():
    result = simulate("request; load weather & invoke weather; invoke weather; request b")
    assert result.ok and result.tools_source.endswith("tools.yaml") and len(result.tools) == 5
    first, step, call, other = (s.observation for s in result.steps)
    assert first == ToolsObservation(tools=("@load", "@unload", "clock"))
    assert isinstance(step, StepObservation) and step.tools == ("@load", "@unload", "clock", "weather")
    assert [a.to_json()["outcome"] for a in step.answers[1:]] == ["refused"]  # not shown in that step's call yet
    assert call.answers[0].to_json()["outcome"] == "executed"
    assert other.tools == ("@load", "@unload", "clock")  # thread b has its own loads


def test_options_change_what_the_model_is_shown():
    result = simulate("request; load weather; request b", disclosure=Options.from_text("state_scope=instance"))
    assert result.steps[-1].observation.tools == ("@load", "@unload", "clock", "weather")


def test_a_call_the_options_do_not_offer_is_a_script_problem_at_its_line():
    result = simulate("request\nsearch weather")
    assert not result.ok and result.steps == ()
    (problem,) = result.script_problems
    assert (problem.code, problem.source.line, problem.source.column) == ("not-applicable", 2, 1)
    assert "search is not offered" in problem.message


def test_a_catalogue_file_is_read_and_its_problems_point_into_it(tmp_path):
    tools = tmp_path / "tools.yaml"
    tools.write_text("tools:\n- {name: alpha, description: A}\n- {name: '@beta', description: B}\n", encoding="utf-8")
    result = simulate("request", tools=tools)
    assert not result.ok
    assert [(p.code, p.source.line, p.pointer) for p in result.problems] == [("schema", 3, "/tools/1/name")]
    tools.write_text("tools:\n- {name: alpha, description: A, always_visible: true}\n", encoding="utf-8")
    assert simulate("request", tools=tools).steps[0].observation.tools == ("@load", "@unload", "alpha")


def test_the_command_prints_tool_lists_and_answers(capsys):
    code = main(["simulate", "--disclosure", "listing=true", "request; load weather nope; list"])
    out = capsys.readouterr().out
    assert code == 0
    assert "    tools: @load @unload @list clock" in out
    assert "    -> load: weather loaded, nope not_found" in out
    assert "    next: @load @unload @list clock weather" in out
    assert "    -> list: weather (loaded), calendar, github, translate, clock (loaded)" in out


def test_bad_options_exit_2_naming_the_option(capsys):
    assert main(["simulate", "--disclosure", "scope=thread", "request"]) == 2
    assert "--disclosure: field 'scope' is not a disclosure option" in capsys.readouterr().err
