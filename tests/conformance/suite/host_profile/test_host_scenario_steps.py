"""Host scenario files: host steps become host commands, and the rules the schema cannot say."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from conformance.suite.scenario import HostExpectation, load_scenario
from reference_impl.host_commands import Behaviour, Dispatch, Load, OpenConversation, ReadConfig, Reload, Start, Stop

PLUGINS = """\
plugins:
  - {name: Memory, module_name: memory, version: 1.0.0, description: M., hooks: [session_end]}
  - {name: Notes, module_name: notes, version: 1.0.0, description: N., dependencies: [memory]}
"""


def write(tmp_path: Path, body: str, *, head: str = "profiles: [host]\n") -> Path:
    path = tmp_path / "scenario.yaml"
    path.write_text("id: s\ntitle: t\ncovers: [HOST-LOAD-1]\n" + head + PLUGINS + textwrap.dedent(body), encoding="utf-8")
    return path


def test_every_host_step_becomes_its_host_command(tmp_path) -> None:
    scenario, problems = load_scenario(write(tmp_path, """\
        host: {enabled: [notes, memory]}
        environment: {PAS__MEMORY__SIZE: "3"}
        overrides: [memory.kind=disk]
        behaviour: {setup_fails: [notes], hook_raises: {memory: [session_end]}}
        steps:
          - host_load: null
          - host_start: null
          - host_dispatch: session_end
          - host_dispatch: {hook: session_end, conversation: c1, payload: {x: 1}}
          - host_open_conversation: c2
          - host_reload: memory
          - host_read_config: memory
          - host_stop: null
        """))
    assert problems == []
    load = scenario.steps[0].event
    assert isinstance(load, Load) and [m.module_name for m in load.plugins] == ["memory", "notes"]
    assert load.host.enabled == ("notes", "memory") and load.environment == {"PAS__MEMORY__SIZE": "3"}
    assert load.overrides == ("memory.kind=disk",)
    assert load.behaviour == Behaviour(setup_fails=frozenset({"notes"}),
                                       hook_raises={"memory": frozenset({"session_end"})})
    assert [s.event for s in scenario.steps[1:]] == [
        Start(), Dispatch(hook="session_end"), Dispatch(hook="session_end", conversation="c1", payload={"x": 1}),
        OpenConversation(conversation="c2"), Reload(module_name="memory"), ReadConfig(module_name="memory"), Stop()]
    assert scenario.is_host and all(step.is_host for step in scenario.steps)
    assert scenario.steps[3].event_json() == {"cmd": "host-dispatch", "hook": "session_end", "conversation": "c1",
                                              "payload": {"x": 1}}


def test_a_host_load_mapping_replaces_the_scenario_inputs_for_that_load_only(tmp_path) -> None:
    scenario, problems = load_scenario(write(tmp_path, """\
        overrides: [memory.a=1]
        environment: {PAS__MEMORY__B: "2"}
        steps:
          - host_load: {overrides: [memory.a=9], behaviour: {setup_fails: [memory]}}
          - host_load: null
        """))
    assert problems == []
    first, second = (step.event for step in scenario.steps)
    assert first.overrides == ("memory.a=9",) and first.environment == {"PAS__MEMORY__B": "2"}
    assert first.behaviour.setup_fails == frozenset({"memory"})
    assert second.overrides == ("memory.a=1",) and second.behaviour == Behaviour()


def test_host_expectations_are_read_and_unchecked_parts_stay_none(tmp_path) -> None:
    scenario, problems = load_scenario(write(tmp_path, """\
        steps:
          - host_load: null
            covers: [HOST-LOAD-1]
            load_order: [memory, notes]
            problems: []
            events: [{event: registered, module_name: memory}]
          - host_read_config: memory
            config: {}
            provenance: {/a: file}
          - host_start: null
        """))
    assert problems == []
    load, read, start = scenario.steps
    assert load.host == HostExpectation(load_order=("memory", "notes"), problems=(),
                                        events=({"event": "registered", "module_name": "memory"},))
    assert load.covers == ("HOST-LOAD-1",)
    assert read.host == HostExpectation(config={}, provenance={"/a": "file"})
    assert start.host is None


@pytest.mark.parametrize(("head", "body", "code", "pointer"), [
    ("", "steps:\n  - host_load: null\n", "host-profile-missing", "/profiles"),
    ("profiles: [host]\n", "steps:\n  - host_load: null\n  - run: null\n", "host-steps-mixed", "/steps/1"),
    ("profiles: [host]\n", "steps:\n  - host_start: null\n  - host_load: null\n", "host-load-first", "/steps/0"),
    ("", "steps:\n  - run: null\n    events: []\n", "host-expectation-misplaced", "/steps/0"),
], ids=["no-host-profile", "mixed-steps", "load-not-first", "host-expectation-on-a-run"])
def test_a_malformed_host_scenario_is_a_located_problem(tmp_path, head, body, code, pointer) -> None:
    scenario, problems = load_scenario(write(tmp_path, body, head=head))
    assert scenario is None
    assert [(p.code, p.pointer) for p in problems] == [(code, pointer)]
    assert problems[0].source is not None and problems[0].source.line is not None


@pytest.mark.parametrize(("body", "pointer"), [
    ("steps:\n  - host_dispatch: Session-End\n", "/steps/0/host_dispatch"),
    ("steps:\n  - host_load: null\n    events: [{event: exploded}]\n", "/steps/0/events/0/event"),
    ("steps:\n  - host_load: null\n    problems: [{plugins: [a]}]\n", "/steps/0/problems/0"),
    ("steps:\n  - host_read_config: m\n    provenance: {/a: cli}\n", "/steps/0/provenance/~1a"),
    ("behaviour: {setup_fail: [memory]}\nsteps:\n  - host_load: null\n", "/behaviour/setup_fail"),
], ids=["bad-hook-name", "unknown-event", "problem-without-code", "unknown-layer", "behaviour-typo"])
def test_the_scenario_schema_refuses_malformed_host_steps(tmp_path, body, pointer) -> None:
    scenario, problems = load_scenario(write(tmp_path, body))
    assert scenario is None
    assert pointer in [p.pointer for p in problems]
