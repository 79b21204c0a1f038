"""The schema fast path may only say "valid" when jsonschema agrees; it must say so for ordinary valid documents."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.documents.loader import load_documents
from conformance.documents.schemas import certainly_valid, validator

CORPUS = Path(__file__).resolve().parents[1] / "validate" / "corpus"
KINDS = ("plugin-manifest", "host-config")
MANIFEST = {
    "name": "Weather", "module_name": "weather", "version": "1.0.0", "description": "Forecasts.",
    "url": "https://example.org/weather", "dependencies": ["geo"], "hooks": ["before_tool_call"],
    "methods": [{"name": "get", "kind": "tool", "description": "d", "parameters": {"type": "object"}}],
    "config": {"defaults": {"units": "metric"}}, "allow_sleep": True, "sleep_brief": "Weather forecasts.",
    "x-vendor": {"anything": [1, 2]},
}
HOST = {"kind": "host-config", "enabled": ["weather"], "disabled": [], "strategies": {"weather": "allow_sleep"},
        "scheduler_enabled": False, "config": {"weather": {"units": "imperial"}}}
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["", "weather", "1.0.0", "tool", "auto", "x", "not a uri", "a" * 70, "before_tool_call"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["name", "kind", "description", "x-a", "other", "type"]), inner, max_size=3),
    max_leaves=8,
)


def _agrees(kind: str, instance: object) -> None:
    if certainly_valid(kind, instance):
        assert validator(kind).is_valid(instance), instance


def _corpus_documents() -> list[object]:
    values = []
    for path in sorted(CORPUS.iterdir()):
        docs, _ = load_documents(path)
        values.extend(doc.value for doc in docs)
    return values


@pytest.mark.parametrize("kind", KINDS)
def test_fast_path_never_calls_an_invalid_corpus_document_valid(kind):
    for value in _corpus_documents():
        _agrees(kind, value)


def test_fast_path_accepts_the_ordinary_valid_documents():
    assert certainly_valid("plugin-manifest", MANIFEST) and certainly_valid("host-config", HOST)
    assert validator("plugin-manifest").is_valid(MANIFEST) and validator("host-config").is_valid(HOST)


@pytest.mark.parametrize(("field", "value"), [
    ("version", 1.1), ("version", ""), ("module_name", "weather\n"), ("allow_sleep", "yes"), ("allow_sleep", 1), ("module_name", "3rd"),
    ("module_name", "x" * 65), ("dependencies", ["a", "a"]), ("dependencies", [True, 1]), ("hooks", ["Bad"]),
    ("methods", [{"name": "get", "kind": "function", "description": "d"}]), ("methods", [{"name": "get"}]),
    ("sleep_brief", "b" * 2001), ("name", ""), ("colour", "blue"), ("config", {"defaults": []}),
    ("config", {"extra": {}}), ("kind", "host-config"), ("injects_prompt", 0),
])
def test_fast_path_rejects_each_kind_of_manifest_mistake(field, value):
    document = {**MANIFEST, field: value}
    assert not certainly_valid("plugin-manifest", document)
    assert not validator("plugin-manifest").is_valid(document)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=st.sampled_from(sorted(MANIFEST) + ["kind", "builtin", "support_adapter", "other"]), value=JSON)
def test_fast_path_agrees_with_jsonschema_on_any_value_in_any_manifest_field(field, value):
    _agrees("plugin-manifest", {**MANIFEST, field: value})


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=st.sampled_from(sorted(HOST) + ["other"]), value=JSON)
def test_fast_path_agrees_with_jsonschema_on_any_value_in_any_host_config_field(field, value):
    _agrees("host-config", {**HOST, field: value})


@functools.cache
def _suite_responses() -> list[tuple[str, dict]]:
    """Every response the reference gives over the bundled suite, as the stdio adapter checks them.

    Made when a test first asks (not at import: every pytest-xdist worker collects this module), and
    ``closest_meeting`` asked once per distinct ``requires`` (each call walks every combination).
    """
    from support.bundled import bundled_suite

    from conformance.adapters.protocol import response_schema
    from reference_impl.disclosure_options import closest_meeting
    from reference_impl.engine import Engine

    scenarios, _ = bundled_suite()
    hello = {"id": 1, "ok": True, "result": {**Engine.info.to_json(), "protocol_version": 1}}
    found = [("protocol/hello-response", hello), ("protocol/start-response", {"id": 2, "ok": True, "result": {}}),
             ("protocol/bye-response", {"id": 3, "ok": True, "result": {}}),
             ("protocol/error-response", {"id": None, "ok": False, "error": {"message": "bad", "code": "invalid-json"}})]
    declaration = functools.cache(closest_meeting)
    for scenario in scenarios:
        # a disclosure scenario runs under a declaration that meets its requires, its catalogue sent first
        engine = Engine(disclosure=declaration(scenario.requires))
        engine.start(scenario.plugins, scenario.host)
        for event in ([scenario.opening] if scenario.is_disclosure else []) + [step.event for step in scenario.steps]:
            response = {"id": 1, "ok": True, "result": engine.apply(event).to_json()}
            found.append((response_schema(event.cmd, response), response))
    # As they travel: JSON text, so enum members arrive as plain strings.
    return [(schema, json.loads(json.dumps(response))) for schema, response in found]


def test_the_fast_path_accepts_every_protocol_response_of_the_reference_and_jsonschema_agrees():
    assert len(_suite_responses()) > 800
    for schema, response in _suite_responses():
        assert certainly_valid(schema, response), (schema, response)
        assert validator(schema).is_valid(response)


def test_the_wire_writes_every_response_of_the_reference_byte_for_byte_as_the_standard_library():
    from conformance.adapters.protocol.wire import encode  # msgspec, with the standard library behind it

    for _, response in _suite_responses():
        assert encode(response) == json.dumps(response, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(index=st.integers(0, 100_000), path_choice=st.integers(0, 10_000), replacement=JSON)
def test_a_damaged_protocol_response_is_never_certainly_valid_unless_jsonschema_accepts_it(index, path_choice,
                                                                                          replacement):
    schema, response = _suite_responses()[index % len(_suite_responses())]
    damaged = json.loads(json.dumps(response))
    containers = [damaged]
    places = []
    while containers:
        node = containers.pop()
        for key in (node if isinstance(node, dict) else range(len(node))):
            places.append((node, key))
            if isinstance(node[key], (dict, list)):
                containers.append(node[key])
    node, key = places[path_choice % len(places)]
    node[key] = replacement
    _agrees(schema, damaged)
