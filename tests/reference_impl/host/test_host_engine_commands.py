"""The host state machine, command by command (HOST-LIFE-*, HOST-HOOK-*, HOST-CFG-3/4, HOST-CONV-1)."""

from __future__ import annotations

import pytest
from support.host_checks import manifest

from reference_impl.errors import MalformedDocument
from reference_impl.host import HostEngine, HostState, create, step
from reference_impl.host_commands import (
    Behaviour,
    Dispatch,
    Load,
    OpenConversation,
    ReadConfig,
    Reload,
    Start,
    Stop,
    command_from_json,
    command_to_json,
)
from reference_impl.model import HostConfig

PLUGINS = (
    manifest("core", builtin=True, hooks=["before_tool_call", "session_end"]),
    manifest("memory", hooks=["before_tool_call"], defaults={"size": 3, "store": {"kind": "ram"}}),
    manifest("notes", deps=["memory"], hooks=["before_tool_call"], defaults={"secret": "n"}),
    manifest("dice", hooks=["after_model_call"]),
)
HOST = HostConfig(enabled=("notes", "memory", "dice"))


def _events(observation) -> list[tuple[str, str]]:
    return [(e.kind.value, e.module_name) for e in observation.events]


def _started(behaviour: Behaviour = Behaviour()) -> HostEngine:  # noqa: B008 - a frozen value, safe to share
    engine = create()
    engine.apply(Load(plugins=PLUGINS, host=HOST, behaviour=behaviour))
    engine.apply(Start())
    return engine


def test_start_sets_up_every_valid_plugin_in_dependency_order_then_starts_them_in_the_same_order() -> None:
    engine = create()
    engine.apply(Load(plugins=PLUGINS, host=HOST))
    assert _events(engine.apply(Start())) == [
        ("set_up", "core"), ("set_up", "memory"), ("set_up", "notes"), ("set_up", "dice"),
        ("started", "core"), ("started", "memory"), ("started", "notes"), ("started", "dice")]


def test_stop_stops_then_tears_down_in_the_exact_reverse_order() -> None:
    assert _events(_started().apply(Stop())) == [
        ("stopped", "dice"), ("stopped", "notes"), ("stopped", "memory"), ("stopped", "core"),
        ("torn_down", "dice"), ("torn_down", "notes"), ("torn_down", "memory"), ("torn_down", "core")]


def test_a_failed_setup_is_recorded_its_dependents_are_skipped_naming_it_and_the_rest_start() -> None:
    engine = create()
    engine.apply(Load(plugins=PLUGINS, host=HOST, behaviour=Behaviour(setup_fails=frozenset({"memory"}))))
    observation = engine.apply(Start())
    assert _events(observation) == [("set_up", "core"), ("setup_failed", "memory"), ("skipped", "notes"),
                                    ("set_up", "dice"), ("started", "core"), ("started", "dice")]
    skipped = observation.events[2]
    assert (skipped.cause, skipped.reason) == ("memory", "dependency_failed")
    assert _events(engine.apply(Stop())) == [("stopped", "dice"), ("stopped", "core"),
                                             ("torn_down", "dice"), ("torn_down", "core")]


def test_hook_subscribers_are_called_in_load_order_and_only_the_started_ones() -> None:
    engine = _started(Behaviour(setup_fails=frozenset({"notes"})))
    assert _events(engine.apply(Dispatch(hook="before_tool_call"))) == [
        ("hook_called", "core"), ("hook_called", "memory")]


def test_an_exception_in_one_hook_subscriber_is_recorded_and_the_others_still_run() -> None:
    engine = _started(Behaviour(hook_raises={"core": frozenset({"before_tool_call"})}))
    observation = engine.apply(Dispatch(hook="before_tool_call"))
    # load order (core, then enabled: notes, memory), not setup order (memory before notes)
    assert _events(observation) == [("hook_failed", "core"), ("hook_called", "notes"), ("hook_called", "memory")]
    assert observation.events[0].reason == "exception"


def test_a_hook_nobody_subscribes_to_calls_nobody_and_custom_hook_names_work() -> None:
    engine = _started()
    assert engine.apply(Dispatch(hook="on_custom_event")).events == ()
    assert _events(engine.apply(Dispatch(hook="after_model_call"))) == [("hook_called", "dice")]


def test_hooks_are_not_dispatched_before_start_or_after_stop() -> None:
    engine = create()
    engine.apply(Load(plugins=PLUGINS, host=HOST))
    assert engine.apply(Dispatch(hook="before_tool_call")).events == ()
    engine.apply(Start())
    engine.apply(Stop())
    assert engine.apply(Dispatch(hook="before_tool_call")).events == ()


def test_a_conversation_keeps_its_instances_and_a_reload_reaches_only_new_conversations() -> None:
    engine = _started()
    opened = engine.apply(OpenConversation(conversation="old"))
    assert dict(opened.events[0].instances) == {"core": 1, "memory": 1, "notes": 1, "dice": 1}
    reloaded = engine.apply(Reload(module_name="memory"))
    assert (reloaded.events[0].kind.value, reloaded.events[0].generation) == ("reloaded", 2)
    new = engine.apply(OpenConversation(conversation="new"))
    assert new.events[0].instances["memory"] == 2
    old_call = engine.apply(Dispatch(hook="before_tool_call", conversation="old"))
    new_call = engine.apply(Dispatch(hook="before_tool_call", conversation="new"))
    assert [e.generation for e in old_call.events] == [1, 1, 1]
    assert [(e.module_name, e.generation) for e in new_call.events] == [("core", 1), ("notes", 1), ("memory", 2)]
    assert engine.apply(OpenConversation(conversation="old")).events[0].instances["memory"] == 1


def test_dispatching_in_an_unknown_conversation_opens_it_first_with_the_current_instances() -> None:
    engine = _started()
    engine.apply(Reload(module_name="core"))
    engine.apply(Reload(module_name="core"))
    observation = engine.apply(Dispatch(hook="session_end", conversation="fresh"))
    assert [(e.kind.value, e.conversation) for e in observation.events] == [
        ("conversation_opened", "fresh"), ("hook_called", "fresh")]
    assert observation.events[1].generation == 3


def test_reloading_a_plugin_that_is_not_started_is_refused() -> None:
    engine = _started(Behaviour(setup_fails=frozenset({"dice"})))
    for name in ("dice", "ghost"):
        [event] = engine.apply(Reload(module_name=name)).events
        assert (event.kind.value, event.module_name, event.reason) == ("reload_refused", name, "not_started")


def test_read_config_gives_only_that_plugin_namespace_as_a_read_only_snapshot() -> None:
    engine = _started()
    observation = engine.apply(ReadConfig(module_name="memory"))
    assert observation.to_json()["config"] == {"size": 3, "store": {"kind": "ram"}}
    snapshot = observation.config.value
    assert "secret" not in snapshot
    with pytest.raises(TypeError):
        snapshot["size"] = 4
    with pytest.raises(TypeError):
        snapshot["store"]["kind"] = "disk"
    assert engine.apply(ReadConfig(module_name="memory")).to_json()["config"]["size"] == 3


def test_read_config_of_a_plugin_that_is_not_loaded_is_a_problem() -> None:
    [problem] = _started().apply(ReadConfig(module_name="ghost")).problems
    assert (problem.code, problem.message) == ("plugin-not-loaded",
                                               "plugin 'ghost' is not loaded; it has no configuration")


def test_commands_out_of_phase_do_nothing() -> None:
    engine = create()
    assert engine.apply(Start()).events == ()
    assert engine.apply(Stop()).events == ()
    engine.apply(Load(plugins=PLUGINS, host=HOST))
    assert engine.apply(Stop()).events == ()
    engine.apply(Start())
    assert engine.apply(Start()).events == ()
    engine.apply(Stop())
    assert engine.apply(Stop()).events == ()
    assert engine.apply(Start()).events == ()


def test_a_new_load_forgets_everything_before_it() -> None:
    engine = _started()
    engine.apply(OpenConversation(conversation="c"))
    engine.apply(Load(plugins=PLUGINS[:1], host=HostConfig()))
    assert _events(engine.apply(Start())) == [("set_up", "core"), ("started", "core")]
    engine.apply(Reload(module_name="core"))
    [opened] = engine.apply(OpenConversation(conversation="c")).events
    assert opened.instances == {"core": 2}


def test_the_engine_gives_the_same_observations_as_stepping_the_pure_function() -> None:
    script = [Load(plugins=PLUGINS, host=HOST), Start(), Dispatch(hook="before_tool_call", conversation="c"),
              Reload(module_name="notes"), OpenConversation(conversation="d"), ReadConfig(module_name="notes"), Stop()]
    state, stepped = HostState(), []
    for command in script:
        state, observation = step(state, command)
        stepped.append(observation)
    engine, again = create(), create()
    assert [engine.apply(command) for command in script] == stepped
    assert [again.apply(command) for command in script] == stepped


@pytest.mark.parametrize("command", [
    Load(plugins=PLUGINS, host=HOST, environment={"PAS__DICE__SIDES": "6"}, overrides=("dice.faces=6",),
         behaviour=Behaviour(setup_fails=frozenset({"dice"}), hook_raises={"core": frozenset({"session_end"})})),
    Start(), Stop(), Dispatch(hook="session_end", conversation="c", payload={"a": 1}),
    OpenConversation(conversation="c"), Reload(module_name="dice"), ReadConfig(module_name="dice"),
], ids=lambda c: c.cmd)
def test_every_command_survives_a_round_trip_through_its_wire_form(command) -> None:
    assert command_from_json(command_to_json(command)) == command


@pytest.mark.parametrize("doc", [{"cmd": "explode"}, {"cmd": "start"}, {"cmd": "host-reload"},
                                 {"cmd": "host-reload", "module": "x"}, {"cmd": "host-stop", "aardvark": 1}, []])
def test_a_malformed_command_document_is_refused_naming_the_problem(doc) -> None:
    with pytest.raises(MalformedDocument):
        command_from_json(doc)


@pytest.mark.parametrize("doc", [{"setup_fails": "notes"}, {"hook_raises": ["notes"]},
                                 {"setup_fails": "notes", "hook_raises": ["notes"]}],
                         ids=["fails-not-a-list", "raises-not-a-mapping", "both"])
def test_a_behaviour_of_the_wrong_shape_is_a_malformed_document(doc) -> None:
    with pytest.raises(MalformedDocument, match="behaviour"):
        Behaviour.from_json(doc)


def test_observations_serialise_events_without_empty_fields() -> None:
    engine = _started(Behaviour(setup_fails=frozenset({"memory"})))
    doc = engine.apply(Dispatch(hook="before_tool_call", conversation="c")).to_json()
    assert doc == {"events": [
        {"event": "conversation_opened", "conversation": "c", "instances": {"core": 1, "dice": 1}},
        {"event": "hook_called", "module_name": "core", "hook": "before_tool_call", "conversation": "c",
         "generation": 1}], "problems": []}


def test_the_reference_host_claims_the_host_profile() -> None:
    assert create().info.profiles == ("host",)
