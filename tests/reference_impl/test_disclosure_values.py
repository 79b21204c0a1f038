"""The disclosure vocabulary: frozen values, options as a declaration, and the rules' state as a value."""

from __future__ import annotations

import pickle

import pytest

from reference_impl.disclosure import DisclosureState, NotApplicable, start, step
from reference_impl.disclosure_commands import (
    Clear,
    DisclosureStart,
    Idle,
    InvokeCall,
    LoadCall,
    ModelStep,
    Rebuild,
    Request,
    Store,
    Tool,
    disclosure_event_from_json,
)
from reference_impl.disclosure_options import Options, Scope, UnloadBy, every_combination
from reference_impl.errors import MalformedDocument
from reference_impl.frozen import FrozenMap
from reference_impl.model import ImplementationInfo

CATALOGUE = DisclosureStart(tools=(Tool(name="weather", description="Weather", parameters={"type": "object",
                                                                                           "properties": {"q": {}}}),
                                   Tool(name="clock", always_visible=True)))


def test_tools_and_calls_freeze_what_they_are_given_and_give_plain_json_back():
    tool = CATALOGUE.tools[0]
    assert isinstance(tool.parameters, FrozenMap) and isinstance(tool.parameters["properties"], FrozenMap)
    assert type(tool.to_json()["parameters"]["properties"]) is dict
    call = InvokeCall(name="weather", arguments={"city": ["Paris"]})
    assert call.arguments["city"] == ("Paris",) and call.to_json() == {"invoke": "weather", "arguments": {"city": ["Paris"]}}
    assert hash(CATALOGUE) == hash(pickle.loads(pickle.dumps(CATALOGUE)))


def test_every_event_reads_back_from_its_wire_form():
    for event in (CATALOGUE, Request(thread="a"), ModelStep(thread="a", calls=(LoadCall(names=("x", "y"), several=True),)),
                  Rebuild(store=Store.RESET), Idle(seconds=2), Clear(thread="b")):
        assert disclosure_event_from_json(event.to_json()) == event


def test_idle_takes_seconds_as_a_float_and_refuses_a_negative_or_a_boolean():
    assert Idle(seconds=1).seconds == 1.0 and isinstance(Idle(seconds=1).seconds, float)
    for bad in (-1, True):
        with pytest.raises(MalformedDocument):
            Idle(seconds=bad)


def test_the_rules_state_is_a_hashable_value_after_every_step():
    state = start(Options(), CATALOGUE)
    for event in (Request(), ModelStep(calls=(LoadCall(names=("weather",)),)), Request(thread="b")):
        state, _ = step(state, event)
        assert isinstance(state.threads, FrozenMap)
        assert hash(state) == hash(pickle.loads(pickle.dumps(state)))
    assert state == DisclosureState(options=Options(), tools=CATALOGUE.tools, threads=dict(state.threads),
                                    clock=state.clock)


def test_a_step_on_a_thread_without_an_open_request_is_not_applicable():
    with pytest.raises(NotApplicable, match="no open request"):
        step(start(Options(), CATALOGUE), ModelStep(calls=(LoadCall(names=("weather",)),)))


def test_options_read_from_a_command_line_and_written_back():
    options = Options.from_text("state_scope=instance, order=catalogue,unload=model+host,listing=true")
    assert options.state_scope is Scope.INSTANCE and options.unload == {UnloadBy.MODEL, UnloadBy.HOST} and options.listing
    assert Options.from_text(options.to_text()) == options
    assert Options.from_text("") == Options() and Options().to_text() == ""
    assert Options.from_text("unload=").unload == frozenset()
    assert Options.from_text("expiry=idle,expiry_seconds=60").expiry_seconds == 60.0


@pytest.mark.parametrize(("text", "field"), [("scope=thread", "scope"), ("state_scope", "state_scope"),
                                             ("listing=yes", "listing"), ("expiry=idle", "expiry_seconds"),
                                             ("state_scope=request,unload=host", "unload")])
def test_a_bad_option_text_names_the_option(text, field):
    with pytest.raises(MalformedDocument) as raised:
        Options.from_text(text)
    assert raised.value.field == field


def test_unmet_requirements_are_said_in_one_sentence_per_option():
    options = Options(state_scope=Scope.INSTANCE)
    assert options.unmet({"state_scope": ["thread", "messages"], "batch": [True]}) == (
        "state_scope is instance, the scenario requires thread or messages",)
    assert Options(unload=frozenset()).unmet({"unload": ["model"]}) == ("unload is empty, the scenario requires model",)
    assert options.meets({"unload": ["model"], "listing": [False]})
    assert not Options().meets({"listing": [0]})  # a JSON 0 is not false


def test_every_combination_the_spec_allows_is_960_distinct_declarations():
    combinations = list(every_combination())
    assert len(combinations) == len(set(combinations)) == 960
    assert all(Options.from_json(o.to_json()) == o for o in combinations)


def test_the_declaration_travels_in_hello():
    info = ImplementationInfo(name="x", version="1", language="go", profiles=("disclosure",),
                              disclosure=Options(state_scope=Scope.INSTANCE))
    assert ImplementationInfo.from_json(info.to_json()) == info
    bare = ImplementationInfo.from_json({"name": "x", "version": "1", "profiles": ["disclosure"]})
    assert bare.disclosure is None and bare.disclosure_options == Options()
    with pytest.raises(MalformedDocument):
        ImplementationInfo.from_json({"name": "x", "version": "1", "profiles": [], "disclosure": {"scope": "thread"}})
