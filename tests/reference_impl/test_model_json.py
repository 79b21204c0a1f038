"""to_json / from_json: lossless round trips, and MalformedDocument naming the bad field."""

from __future__ import annotations

import json

import pytest
from support.refimpl_builders import SEMANTICS, protected, sleeper

from conformance.adapters.protocol.messages import observation_from_json
from reference_impl.errors import MalformedDocument, PasError
from reference_impl.events import (
    OMITTED,
    Activate,
    Disable,
    Enable,
    Extend,
    PluginView,
    Restart,
    RunObservation,
    SetScheduler,
    SetStrategy,
    StartRun,
    event_from_json,
)
from reference_impl.model import HostConfig, ImplementationInfo, Manifest, Method, MethodKind, PluginState, Strategy
from reference_impl.scheduler import SchedulerState

FULL_MANIFEST = {
    "name": "笔记插件",
    "module_name": "note",
    "version": "1.2.0-rc.1",
    "description": "管理用户笔记",
    "author": "kroluna",
    "url": "https://example.org/note",
    "dependencies": ["memory_tools"],
    "config": {"defaults": {"api": {"timeout_s": 10}}, "schema": {"type": "object"}},
    "methods": [{"name": "add_note", "kind": "tool", "description": "Add.",
                 "parameters": {"type": "object", "properties": {"text": {"type": "string"}}}},
                {"name": "ask", "kind": "multimodal_agent", "description": "Ask."}],
    "injects_prompt": True,
    "hooks": ["session_end"],
    "builtin": True,
    "support_adapter": ["onebot_v11"],
    "allow_sleep": False,
    "sleep_brief": "Notes.",
    "x-vendor": {"anything": [1, 2]},
}
MINIMAL = {"name": "N", "module_name": "n", "version": "1.0.0", "description": ""}


@pytest.mark.parametrize("doc", [FULL_MANIFEST, MINIMAL, {**MINIMAL, "allow_sleep": True, "sleep_brief": "  "}],
                         ids=["full", "minimal", "blank-brief"])
def test_a_manifest_document_survives_from_json_then_to_json(doc):
    assert Manifest.from_json(doc).to_json() == doc
    assert Manifest.from_json(json.loads(json.dumps(doc))) == Manifest.from_json(doc)


def test_a_built_manifest_survives_to_json_then_from_json():
    manifest = sleeper("weather", injects_prompt=True, support_adapter=("a", "b"), config_defaults={"u": 1})
    assert Manifest.from_json(manifest.to_json()) == manifest


def test_a_host_config_survives_both_ways():
    doc = {"enabled": ["weather", "note"], "disabled": ["github"], "strategies": {"dice": "forbid_sleep", "w": "allow_sleep"},
           "scheduler_enabled": False, "config": {"weather": {"units": "metric"}}}
    host = HostConfig.from_json(doc)
    assert host.strategy_for("dice") is Strategy.FORBID_SLEEP and host.strategy_for("other") is Strategy.AUTO
    assert host.to_json() == doc
    assert HostConfig.from_json(host.to_json()) == host


def test_an_empty_host_config_means_no_plugins_and_the_scheduler_on():
    assert HostConfig.from_json({}) == HostConfig()
    assert HostConfig().scheduler_enabled is True


def test_implementation_info_and_plugin_views_survive_both_ways():
    """A view is read back on the runner's side of the wire (conformance.adapters.protocol.messages)."""
    info = ImplementationInfo(name="x", version="1", language="go", profiles=("activation",))
    assert ImplementationInfo.from_json(info.to_json()) == info
    view = PluginView(module_name="w", state=PluginState.ACTIVE, rounds_left=2, hint=False, brief_shown=False,
                      methods_shown=True, injection_called=True)
    run = RunObservation(plugins=(view,))
    assert observation_from_json("run", json.loads(json.dumps(run.to_json()))) == run


EVENTS = [
    StartRun(conversation="c"),
    StartRun(conversation="c", adapter="onebot"),
    Activate(conversation="c", module_name="w"),
    Activate(conversation="c", module_name="w", rounds=None, adapter="x"),
    Extend(conversation="c", module_name="w", rounds=2.5),
    SetStrategy(module_name="w", strategy="bogus"),
    Enable(module_name="w"),
    Disable(module_name="w"),
    SetScheduler(enabled=False),
    Restart(),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: json.dumps(e.to_json()))
def test_an_event_survives_its_wire_form(event):
    assert event_from_json(json.loads(json.dumps(event.to_json()))) == event


def test_an_omitted_rounds_is_left_out_of_the_wire_form_and_null_is_kept():
    assert "rounds" not in Activate(conversation="c", module_name="w").to_json()
    assert event_from_json({"cmd": "extend", "conversation": "c", "module_name": "w"}).rounds is OMITTED
    assert event_from_json({"cmd": "extend", "conversation": "c", "module_name": "w", "rounds": None}).rounds is None


@pytest.mark.parametrize(("doc", "field"), [
    ({"cmd": "dance"}, "cmd"),
    ({"conversation": "c"}, "cmd"),
    ({"cmd": "run", "conversation": "c", "colour": "red"}, ""),
    ({"cmd": "activate", "conversation": "c"}, ""),
])
def test_a_bad_event_is_a_malformed_document(doc, field):
    with pytest.raises(MalformedDocument) as caught:
        event_from_json(doc)
    assert caught.value.field == field


@pytest.mark.parametrize(("doc", "field"), [
    ({"cmd": "set-scheduler", "enabled": "no"}, "enabled"),
    ({"cmd": "set-scheduler", "enabled": 1}, "enabled"),
    ({"cmd": "run", "conversation": 5}, "conversation"),
    ({"cmd": "activate", "conversation": "c", "module_name": None}, "module_name"),
    ({"cmd": "run", "conversation": "c", "adapter": ["qq"]}, "adapter"),
], ids=lambda v: v if isinstance(v, str) else None)
def test_an_event_field_of_the_wrong_type_is_a_malformed_document(doc, field):
    """Regression: SetScheduler(enabled='no') used to be built, and a later Restart then raised."""
    with pytest.raises(MalformedDocument) as caught:
        event_from_json(doc)
    assert caught.value.field == field


@pytest.mark.parametrize(("doc", "field", "words"), [
    ({**MINIMAL, "name": 3}, "name", "must be str, not int"),
    ({**MINIMAL, "module_name": None}, "module_name", "must be str"),
    ({key: value for key, value in MINIMAL.items() if key != "name"}, "name", "is required"),
    ({**MINIMAL, "allow_sleep": "yes"}, "allow_sleep", "true, false or null"),
    ({**MINIMAL, "injects_prompt": 1}, "injects_prompt", "must be bool"),
    ({**MINIMAL, "builtin": "true"}, "builtin", "must be bool"),
    ({**MINIMAL, "sleep_brief": None}, "sleep_brief", "must be str"),
    ({**MINIMAL, "dependencies": "memory"}, "dependencies", "must be list"),
    ({**MINIMAL, "hooks": [1]}, "hooks", "list of strings"),
    ({**MINIMAL, "support_adapter": [None]}, "support_adapter", "list of strings"),
    ({**MINIMAL, "methods": {"name": "m"}}, "methods", "must be list"),
    ({**MINIMAL, "methods": [{"name": "m", "kind": "tool2", "description": ""}]}, "kind", "tool, agent, behavior"),
    ({**MINIMAL, "methods": [{"kind": "tool", "description": ""}]}, "name", "is required"),
    ({**MINIMAL, "config": []}, "config", "must be dict"),
    ({**MINIMAL, "name": True}, "name", "must be str, not bool"),
], ids=lambda v: v if isinstance(v, str) else None)
def test_a_manifest_of_the_wrong_shape_names_the_field(doc, field, words):
    with pytest.raises(MalformedDocument) as caught:
        Manifest.from_json(doc)
    assert caught.value.field == field
    assert words in str(caught.value) and f"'{field}'" in str(caught.value)
    assert isinstance(caught.value, PasError) and isinstance(caught.value, ValueError)


@pytest.mark.parametrize("method", ["get_name", 1, None, ["name"]], ids=["string", "int", "null", "list"])
def test_a_method_that_is_not_a_mapping_is_a_malformed_document(method):
    """Regression: these used to raise TypeError ('string indices must be integers', 'not iterable')."""
    with pytest.raises(MalformedDocument, match="'methods'"):
        Manifest.from_json({**MINIMAL, "methods": [method]})


@pytest.mark.parametrize(("doc", "field"), [
    ({"strategies": {"w": "forbid-sleep"}}, "strategies/w"),
    ({"strategies": {"w": None}}, "strategies/w"),
    ({"strategies": []}, "strategies"),
    ({"enabled": "weather"}, "enabled"),
    ({"disabled": [3]}, "disabled"),
    ({"scheduler_enabled": "false"}, "scheduler_enabled"),
    ({"config": "x"}, "config"),
], ids=lambda v: v if isinstance(v, str) else None)
def test_a_host_config_of_the_wrong_shape_names_the_field(doc, field):
    with pytest.raises(MalformedDocument) as caught:
        HostConfig.from_json(doc)
    assert caught.value.field == field


@pytest.mark.parametrize("entry", [3, "ab", [["a", 1]]], ids=["int", "string", "list-of-pairs"])
def test_a_host_config_entry_that_is_not_a_mapping_is_malformed(entry):
    """Regression: {'w': 3} used to be accepted and to_json() (so a Restart) then raised TypeError."""
    with pytest.raises(MalformedDocument) as caught:
        HostConfig.from_json({"config": {"w": entry}})
    assert caught.value.field.startswith("config")


@pytest.mark.parametrize("doc", [[], "host", None, 3])
def test_a_manifest_or_host_config_that_is_not_a_mapping_is_malformed(doc):
    for parse in (Manifest.from_json, HostConfig.from_json):
        with pytest.raises(MalformedDocument, match="must be a mapping"):
            parse(doc)


def test_a_scheduler_state_survives_json_text():
    host = HostConfig(enabled=("w", "d"), disabled=frozenset({"d"}), strategies={"w": Strategy.ALLOW_SLEEP},
                      scheduler_enabled=False)
    state = SchedulerState(host=host, counters={"a": {"w": 3, "d": 20}, "b": {"w": 1}})
    assert SchedulerState.from_json(json.loads(json.dumps(state.to_json())), SEMANTICS) == state
    assert SchedulerState.from_json({}, SEMANTICS) == SchedulerState()


@pytest.mark.parametrize("doc", [
    {"counters": [1]},
    {"counters": {"a": [1]}},
    {"counters": {"a": {"w": "3"}}},
    {"counters": {"a": {"w": 2.0}}},
    {"counters": {"a": {"w": True}}},
    {"counters": {"a": {"w": None}}},
    {"host": []},
    {"host": {"scheduler_enabled": "yes"}},
], ids=lambda d: json.dumps(d))
def test_a_scheduler_state_rejects_garbage(doc):
    """Covers: ACT-COUNT-7 (only a real persisted state is restored)."""
    with pytest.raises(MalformedDocument):
        SchedulerState.from_json(doc, SEMANTICS)


@pytest.mark.parametrize("doc", [[], "state", None], ids=["list", "string", "null"])
def test_a_scheduler_state_that_is_not_a_mapping_is_malformed(doc):
    """Regression: these used to raise AttributeError from doc.get."""
    with pytest.raises(MalformedDocument):
        SchedulerState.from_json(doc, SEMANTICS)


@pytest.mark.parametrize("count", [-3, 21, 99])
def test_a_scheduler_state_rejects_counters_out_of_range_ACT_COUNT_8(count):
    """Covers: ACT-COUNT-8. Regression: a restored 99 used to be shown as rounds_left 99."""
    with pytest.raises(MalformedDocument):
        SchedulerState.from_json({"counters": {"a": {"w": count}}}, SEMANTICS)


def test_a_restored_zero_counter_is_the_same_as_none():
    """Covers: ACT-COUNT-2 (a counter reaching 0 is removed)."""
    restored = SchedulerState.from_json({"counters": {"a": {"w": 0}, "b": {"w": 0, "d": 2}}}, SEMANTICS)
    assert restored == SchedulerState(counters={"b": {"d": 2}})


def test_manifest_values_are_frozen():
    manifest = protected("core")
    with pytest.raises(AttributeError):
        manifest.allow_sleep = True  # type: ignore[misc]
    assert Method(name="m", kind=MethodKind("agent"), description="").kind is MethodKind.AGENT
