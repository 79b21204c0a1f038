"""The step table: one row per event and host command, and writing a step is the exact inverse of reading it.

What ``pas fuzz`` used to prove at run time by reloading every file it wrote is proven here:
an event written as a step value reads back as the same event (Hypothesis, over every row, with
odd values: rounds of every JSON type or left out, floats, lists, non-ASCII and line-break
characters), a scenario file written from events loads back as those events through the schema
and the YAML dumper, and every bundled scenario written back step by step is the same Scenario.
NaN and infinities are left out: they are not JSON, and no scenario or protocol message holds them.
"""

from __future__ import annotations

import dataclasses
import inspect
import typing
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.documents.loader import load_mapping
from conformance.documents.step_form import StepContext, StepRow, Unwritable, same
from conformance.documents.step_table import CALL_SCRIPTS, DEFAULT_CONVERSATION, ROWS, STEP_ROWS, row_of, write_steps
from conformance.fuzz.emit import dump
from conformance.suite.scenario import SUITE_DIR, build_scenario, check_scenario, load_scenario, scenario_files
from reference_impl import disclosure_commands, events, host_commands
from reference_impl.disclosure_commands import (
    DISCLOSURE_EVENT_TYPES,
    DisclosureEvent,
    DisclosureStart,
    InvokeCall,
    ListCall,
    LoadCall,
    SearchCall,
    Store,
)
from reference_impl.events import EVENT_TYPES, OMITTED, Event
from reference_impl.host_commands import HOST_COMMAND_TYPES, Behaviour, HostCommand, Load
from reference_impl.model import HostConfig
from reference_impl.spec_files import spec_dir

_SETTINGS = settings(max_examples=150, database=None, deadline=None,
                     suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def strictly_equal(a: Any, b: Any) -> bool:
    """Equal all the way down with the same types: an event with rounds=1 is not one with rounds=True."""
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return type(a) is type(b) and all(strictly_equal(getattr(a, f.name), getattr(b, f.name))
                                          for f in dataclasses.fields(a))
    if isinstance(a, (frozenset, set)):
        return type(a) is type(b) and a == b
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(strictly_equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(map(strictly_equal, a, b))
    return same(a, b)


# ----------------------------------------------------------------------------- one row per class


def _classes_with_a_cmd(module: Any) -> set[type]:
    return {v for v in vars(module).values() if inspect.isclass(v) and v.__module__ == module.__name__
            and isinstance(getattr(v, "cmd", None), str)}


def test_every_event_and_host_command_class_has_exactly_one_row():
    # A new event class: add it to the Event (or HostCommand, DisclosureEvent) union, to EVENT_TYPES
    # (HOST_COMMAND_TYPES, DISCLOSURE_EVENT_TYPES) and a row to conformance/documents/step_table.py;
    # this test names whichever is missing. disclosure-start has none: the runner sends it first,
    # with the scenario's catalogue (Scenario.opening), as it sends start with an activation scenario's plugins.
    disclosed = set(typing.get_args(DisclosureEvent)) - {DisclosureStart}
    unions = set(typing.get_args(Event)) | set(typing.get_args(HostCommand)) | disclosed
    assert _classes_with_a_cmd(events) | _classes_with_a_cmd(host_commands) | _classes_with_a_cmd(disclosure_commands) \
        == unions | {DisclosureStart}
    assert set(EVENT_TYPES.values()) == set(typing.get_args(Event))
    assert set(HOST_COMMAND_TYPES) == set(typing.get_args(HostCommand))
    assert set(DISCLOSURE_EVENT_TYPES.values()) == set(typing.get_args(DisclosureEvent))
    rows = Counter(row.type for row in STEP_ROWS)
    assert {t.__name__ for t in unions - set(rows)} == set(), "these classes have no row in the step table"
    assert {t.__name__ for t, n in rows.items() if n > 1} == set(), "these classes have more than one row"
    assert set(rows) == unions


def test_every_row_names_each_field_of_its_class_once_with_conversation_before_adapter():
    for row in STEP_ROWS:
        names = [key.name for key in row.keys]
        assert sorted(names) == sorted(f.name for f in dataclasses.fields(row.type)), row.key
        assert len(set(names)) == len(names), row.key
        if "adapter" in names:
            assert names.index("conversation") < names.index("adapter"), row.key
        assert row.bare is None or row.bare in names, row.key


def test_the_scenario_schema_has_one_step_key_per_row():
    schema = yaml.safe_load((spec_dir() / "schemas" / "scenario.schema.yaml").read_text(encoding="utf-8"))
    step = schema["$defs"]["step"]
    assert sorted(choice["required"][0] for choice in step["oneOf"]) == sorted(ROWS)
    assert set(ROWS) <= set(step["properties"])


def test_script_words_are_unique_and_keys_follow_the_wire_command():
    words = [row.script.word for row in STEP_ROWS if row.script] + list(CALL_SCRIPTS)
    assert len(words) == len(set(words))
    # the disclosure steps are named for what happens in a conversation; every other key is its wire command's
    assert all(row.key == row.type.cmd.replace("-", "_") for row in STEP_ROWS if not row.disclosure)
    assert {row.key: row.type.cmd for row in STEP_ROWS if row.disclosure} == {
        "request": "disclosure-request", "model_step": "disclosure-step", "end_request": "disclosure-end",
        "rebuild": "disclosure-rebuild", "trim_history": "disclosure-trim", "idle": "disclosure-idle",
        "clear_state": "disclosure-clear"}


# ----------------------------------------------------------------------------- event -> step value -> event

_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=6) | st.sampled_from(
    ["main", "alpha", " alpha\u3000", "\x85\u2028x", "天气", "3", "null", "true", "- a", "a: b", "#"])
_SCALARS = (st.none() | st.booleans() | st.integers() | st.integers(min_value=2**63, max_value=2**70)
            | st.floats(allow_nan=False, allow_infinity=False) | _TEXT)
_JSON = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
                     max_leaves=6)
_ADAPTERS = st.none() | st.sampled_from(["onebot_v11", "discord"]) | _TEXT.filter(bool)
_LOAD = Load(host=HostConfig(enabled=("alpha",)), environment={"A": "1"}, overrides=("alpha.x=1",))
_NAMES = st.sampled_from(["alpha", "beta", "gamma"])
_BEHAVIOUR = st.builds(Behaviour, setup_fails=st.frozensets(_NAMES),
                       hook_raises=st.dictionaries(_NAMES, st.frozensets(st.sampled_from(["on_x", "session_end"]))))

_TOOL = _TEXT.filter(lambda name: bool(name) and not name.startswith("@"))
_CALLS = st.one_of(
    st.builds(lambda names, several, unload: LoadCall(names=tuple(names), several=several or len(names) > 1,
                                                         unload=unload),
              st.lists(_TEXT, min_size=1, max_size=3), st.booleans(), st.booleans()),
    st.builds(SearchCall, query=_TEXT), st.just(ListCall()),
    st.builds(InvokeCall, name=_TEXT, arguments=st.dictionaries(_TEXT, _JSON, max_size=2)))

#: A strategy per event field name; a new field needs one here (the KeyError says which).
FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "conversation": _TEXT | st.just(DEFAULT_CONVERSATION),
    "adapter": _ADAPTERS,
    "module_name": _TEXT,
    "rounds": st.just(OMITTED) | _JSON,
    "strategy": _JSON,
    "enabled": st.booleans(),
    "hook": _TEXT,
    "payload": st.dictionaries(_TEXT, _JSON, max_size=3),
    "plugins": st.just(_LOAD.plugins),
    "host": st.just(_LOAD.host) | st.just(HostConfig()),
    "environment": st.just(_LOAD.environment) | st.dictionaries(_TEXT, _TEXT, max_size=2),
    "overrides": st.just(_LOAD.overrides) | st.lists(_TEXT, max_size=2).map(tuple),
    "behaviour": st.just(_LOAD.behaviour) | _BEHAVIOUR,
    "thread": _TEXT.filter(bool) | st.just("main"),
    "calls": st.lists(_CALLS, min_size=1, max_size=3).map(tuple),
    "store": st.sampled_from(Store),
    "keep": st.integers(min_value=0, max_value=2**40),
    "seconds": st.integers(min_value=0, max_value=10**9) | st.floats(min_value=0, max_value=1e12),
}


def events_of(row: StepRow, fields: Mapping[str, st.SearchStrategy[Any]] = FIELDS) -> st.SearchStrategy[Any]:
    """Events of ``row``'s class, each field drawn from ``fields``."""
    return st.builds(row.type, **{key.name: fields[key.name] for key in row.keys})


def _context(declared: Mapping[str, str]) -> StepContext:
    return StepContext(adapters=dict(declared), load=_LOAD)


def _sayable(event: Any, declared: Mapping[str, str]) -> bool:
    """Whether a step can say ``event``: no 'no adapter' where there is one, no other plugins or host."""
    if isinstance(event, Load):
        return event.plugins == _LOAD.plugins and event.host == _LOAD.host
    if not hasattr(event, "adapter"):
        return True
    return event.adapter is not None or declared.get(event.conversation) is None


_DECLARED = st.dictionaries(st.sampled_from(["main", "side", "天气"]), st.sampled_from(["onebot_v11", "discord"]))


@pytest.mark.parametrize("row", STEP_ROWS, ids=lambda row: row.key)
def test_an_event_written_as_a_step_reads_back_as_the_same_event(row: StepRow):
    @_SETTINGS
    @given(event=events_of(row), declared=_DECLARED)
    def round_trip(event: Any, declared: dict[str, str]) -> None:
        assert row_of(event) is row
        writing, reading = _context(declared), _context(declared)
        if not _sayable(event, declared):
            with pytest.raises(Unwritable):
                row.write(event, writing)
            return
        value = row.write(event, writing)
        through_yaml = yaml.safe_load(dump({row.key: value}))[row.key]
        assert strictly_equal(through_yaml, value)
        assert strictly_equal(row.read(through_yaml, reading), event)
        assert writing.adapters == reading.adapters  # a run naming an adapter moved the same conversation
        assert row.label(event, declared).startswith(row.key)

    round_trip()


def test_same_tells_json_types_apart_where_python_equality_does_not():
    assert not same(1, True) and not same(1, 1.0) and not same(0, False) and not same("1", 1)
    assert not same({"a": 1}, {"a": True}) and not same([1], [1.0])
    assert same([1, {"a": None}], (1, {"a": None})) and same(OMITTED, OMITTED) and same("main", "main")


def test_a_step_leaves_out_only_what_reads_back_the_same():
    # 1, 1.0 and True are equal in Python; a default must not swallow the difference.
    run = ROWS["run"]
    assert run.write(events.StartRun(conversation="main"), StepContext()) is None
    assert run.write(events.StartRun(conversation="side"), StepContext()) == "side"
    context = StepContext(adapters={"qq": "onebot_v11"})
    assert run.write(events.StartRun(conversation="qq", adapter="discord"), context) == {"conversation": "qq",
                                                                                         "adapter": "discord"}
    assert context.adapters == {"qq": "discord"}
    call = events.Activate(conversation="main", module_name="a", rounds=True)
    assert ROWS["activate"].write(call, StepContext()) == {"module_name": "a", "rounds": True}


# ----------------------------------------------------------------------------- files: events -> scenario file -> events

_IDENTIFIERS = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,5}", fullmatch=True)
_HOOKS = st.from_regex(r"[a-z][a-z0-9_]{0,5}", fullmatch=True)
#: What the scenario schema allows where it is narrower than any JSON value.
SCHEMA_FIELDS = {**FIELDS, "conversation": _TEXT.filter(bool), "adapter": _ADAPTERS.filter(bool), "hook": _HOOKS,
                 "host": st.just(_LOAD.host), "plugins": st.just(_LOAD.plugins)}
_ADMIN = {"enable", "disable", "set_strategy", "host_reload", "host_read_config"}  # module names are identifiers there


def _schema_events(rows: list[StepRow]) -> st.SearchStrategy[list[Any]]:
    def fields(row: StepRow) -> Mapping[str, st.SearchStrategy[Any]]:
        return {**SCHEMA_FIELDS, "module_name": _IDENTIFIERS} if row.key in _ADMIN else SCHEMA_FIELDS

    return st.lists(st.sampled_from(rows).flatmap(lambda row: events_of(row, fields(row))), min_size=1, max_size=8)


def _sayable_all(sent: list[Any], declared: Mapping[str, str]) -> list[Any]:
    """The events with each 'no adapter' the steps could not say replaced by the conversation's adapter."""
    current, kept = dict(declared), []
    for event in sent:
        if getattr(event, "adapter", "") is None and current.get(event.conversation) is not None:
            event = dataclasses.replace(event, adapter=current[event.conversation])
        if isinstance(event, events.StartRun) and event.adapter is not None:
            current[event.conversation] = event.adapter
        kept.append(event)
    return kept


def _file_round_trip(tmp_path: Path, sent: list[Any], doc: dict[str, Any], declared: Mapping[str, str]) -> None:
    doc["steps"] = [{key: value} for key, value in write_steps(tuple(sent), _context(declared))]
    path = tmp_path / "round-trip.yaml"
    path.write_text(dump(doc), encoding="utf-8")
    scenario, problems = load_scenario(path)
    assert problems == []
    assert strictly_equal(tuple(step.event for step in scenario.steps), tuple(sent))


@_SETTINGS
@given(sent=_schema_events([row for row in STEP_ROWS if not row.host and not row.disclosure]), declared=_DECLARED)
def test_activation_events_written_to_a_scenario_file_load_back_as_themselves(tmp_path, sent, declared):
    sent = _sayable_all(sent, declared)
    doc = {"id": "round-trip", "title": "t", "covers": ["ACT-COUNT-1"], "plugins": [], "host": {"enabled": ["alpha"]},
           "environment": dict(_LOAD.environment), "overrides": list(_LOAD.overrides),
           "conversations": {c: {"adapter": a} for c, a in declared.items()}}
    _file_round_trip(tmp_path, sent, doc, declared)


@_SETTINGS
@given(sent=_schema_events([row for row in STEP_ROWS if row.host and row.key != "host_load"]))
def test_host_commands_written_to_a_scenario_file_load_back_as_themselves(tmp_path, sent):
    doc = {"id": "round-trip", "title": "t", "covers": ["HOST-LOAD-1"], "profiles": ["host"], "plugins": [],
           "host": {"enabled": ["alpha"]}, "environment": dict(_LOAD.environment), "overrides": list(_LOAD.overrides)}
    _file_round_trip(tmp_path, [_LOAD, *sent], doc, {})  # a host scenario begins with its own load


def _with_open_requests(sent: list[Any]) -> list[Any]:
    """The events with a request before each model step whose thread has none open (the loader requires one)."""
    open_threads: set[str] = set()
    kept: list[Any] = []
    for event in sent:
        if isinstance(event, disclosure_commands.ModelStep) and event.thread not in open_threads:
            kept.append(disclosure_commands.Request(thread=event.thread))
        if isinstance(event, disclosure_commands.Request | disclosure_commands.ModelStep):
            open_threads.add(event.thread)
        elif isinstance(event, disclosure_commands.EndRequest):
            open_threads.discard(event.thread)
        elif isinstance(event, disclosure_commands.Rebuild):
            open_threads.clear()
        kept.append(event)
    return kept


@_SETTINGS
@given(sent=_schema_events([row for row in STEP_ROWS if row.disclosure]))
def test_disclosure_events_written_to_a_scenario_file_load_back_as_themselves(tmp_path, sent):
    doc = {"id": "round-trip", "title": "t", "covers": ["DISC-CAT-1"], "profiles": ["disclosure"],
           "tools": [{"name": "weather", "description": "w"}]}
    _file_round_trip(tmp_path, _with_open_requests(sent), doc, {})


@_SETTINGS
@given(load=st.builds(Load, plugins=st.just(_LOAD.plugins), host=st.just(_LOAD.host),
                      environment=st.dictionaries(_TEXT, _TEXT, max_size=2),
                      overrides=st.lists(_TEXT, max_size=2).map(tuple), behaviour=_BEHAVIOUR))
def test_a_host_load_step_that_replaces_inputs_loads_back_as_that_load(tmp_path, load):
    doc = {"id": "round-trip", "title": "t", "covers": ["HOST-LOAD-1"], "profiles": ["host"], "plugins": [],
           "host": {"enabled": ["alpha"]}, "environment": dict(_LOAD.environment), "overrides": list(_LOAD.overrides)}
    _file_round_trip(tmp_path, [load, host_commands.Start(), load], doc, {})


# ----------------------------------------------------------------------------- the bundled suite: file -> Scenario -> steps -> Scenario


def test_every_bundled_scenario_written_back_step_by_step_is_the_same_scenario():
    checked = 0
    for path in scenario_files([SUITE_DIR]):
        doc, problems = load_mapping(path)
        assert doc is not None, problems
        scenario = build_scenario(doc)
        declared = {c: s["adapter"] for c, s in doc.value.get("conversations", {}).items() if "adapter" in s}
        load = Load(plugins=scenario.plugins, host=scenario.host, environment=scenario.environment,
                    overrides=scenario.overrides, behaviour=scenario.behaviour)
        written = write_steps(tuple(step.event for step in scenario.steps), StepContext(adapters=declared, load=load))
        steps = [{**{k: v for k, v in raw.items() if k not in ROWS}, key: value}
                 for raw, (key, value) in zip(doc.value["steps"], written, strict=True)]
        again = doc.with_value({**doc.value, "steps": steps})
        assert check_scenario(again) == [], path
        rebuilt = build_scenario(again)
        assert rebuilt == scenario, path
        assert strictly_equal(tuple(s.event for s in rebuilt.steps), tuple(s.event for s in scenario.steps)), path
        checked += 1
    assert checked >= 228


def test_every_row_has_words_for_the_scenario_pages():
    class Words:
        def t(self, english: str) -> str:
            return english

        def code(self, text: str) -> str:
            return f"`{text}`"

        def value(self, data: Any) -> str:
            return f"`{data!r}`"

    @_SETTINGS
    @given(event=st.sampled_from(STEP_ROWS).flatmap(events_of))
    def words(event: Any) -> None:
        assert row_of(event).prose(event, Words()).strip()

    words()
