"""The disclosure profile on the wire: one message class pair and two schemas per ``disclosure-*`` command,
the reference server answering them without a start under the options it declares, and the documented session."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conformance.adapters import protocol
from conformance.adapters.implementation import FailureKind, ImplementationFailed
from conformance.adapters.protocol.disclosure_messages import DisclosureRequest, DisclosureResponse
from conformance.adapters.protocol.wire import check_message, encode
from conformance.adapters.serve import Session
from conformance.adapters.stdio import StdioAdapter
from reference_impl.disclosure_commands import (
    DISCLOSURE_EVENT_TYPES,
    Clear,
    DisclosureStart,
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
    Tool,
    Trim,
)
from reference_impl.disclosure_options import Options
from reference_impl.engine import Engine
from reference_impl.errors import MalformedDocument

ROOT = Path(__file__).resolve().parents[3]
SCHEMAS = ROOT / "spec" / "schemas" / "protocol"
DOC = ROOT / "docs" / "protocol.md"
OPTIONS = Options.from_text("unload=model+host,listing=true,discovery=search_then_load")
CATALOGUE = DisclosureStart(tools=(Tool(name="weather", description="Current weather for a city",
                                        parameters={"type": "object", "properties": {"city": {"type": "string"}}}),
                                   Tool(name="clock", description="The time", always_visible=True)))
EVENTS = (CATALOGUE, Request(thread="a"),
          ModelStep(thread="a", calls=(LoadCall(names=("weather", "nope"), several=True), SearchCall(query="weather"),
                                       ListCall(), InvokeCall(name="clock", arguments={"tz": "UTC"}))),
          EndRequest(thread="a"), Trim(thread="a", keep=2), Idle(seconds=30), Clear(thread="a"),
          Rebuild(store=Store.RESET))


def answered() -> list[tuple[Any, Any]]:
    """Every sample event with the reference's typed request and response."""
    engine = Engine(disclosure=OPTIONS)
    pairs = []
    for index, event in enumerate(EVENTS, 1):
        request = protocol.request_for(index, event)
        pairs.append((request, request.answer(engine.apply(event))))
    return pairs


def test_every_disclosure_command_has_a_request_a_response_and_two_schema_files() -> None:
    assert {cmd: protocol.MESSAGES[cmd] for cmd in DISCLOSURE_EVENT_TYPES} == {
        cmd: (DisclosureRequest, DisclosureResponse) for cmd in DISCLOSURE_EVENT_TYPES}
    assert {event.cmd for event in EVENTS} == set(DISCLOSURE_EVENT_TYPES)
    for request, response in answered():
        assert (request.schema, response.schema) == (f"protocol/{request.cmd}-request", f"protocol/{request.cmd}-response")
        assert (SCHEMAS / f"{request.cmd}-request.schema.yaml").is_file()
        assert (SCHEMAS / f"{request.cmd}-response.schema.yaml").is_file()


@pytest.mark.parametrize(("request_", "response"), answered(), ids=lambda m: getattr(m, "cmd", ""))
def test_disclosure_messages_round_trip_through_json_and_match_their_schemas(request_: Any, response: Any) -> None:
    request_doc = json.loads(encode(request_.to_json()))
    response_doc = json.loads(encode(response.to_json()))
    assert protocol.request_from_json(request_doc) == request_
    assert protocol.response_from_json(request_.cmd, response_doc) == response
    assert check_message(request_.schema, request_doc) == []
    assert check_message(response.schema, response_doc) == []


def test_answers_with_text_unstated_and_unsupported_are_read_back() -> None:
    doc = {"id": 4, "ok": True, "result": {"tools": ["@load", "clock"], "answers": [
        {"call": "load", "results": [{"name": "weather", "outcome": "unstated"}], "text": "Loaded MCP tool 'weather'."},
        {"call": "search", "unsupported": True}]}}
    assert check_message("protocol/disclosure-step-response", doc) == []
    response = protocol.response_from_json("disclosure-step", doc)
    assert response.to_json() == doc


@pytest.mark.parametrize(("cmd", "result", "pointer"), [
    ("disclosure-request", {"tools": "weather"}, "/result/tools"),
    ("disclosure-step", {"tools": [], "answers": [{"call": "load", "results": [{"name": "a", "outcome": "maybe"}]}]},
     "/result/answers/0"),
    ("disclosure-end", {"tools": []}, "/result"),
], ids=["tools-not-a-list", "unknown-outcome", "end-shows-nothing"])
def test_disclosure_response_schemas_refuse_what_a_host_must_not_send(cmd: str, result: Any, pointer: str) -> None:
    problems = check_message(f"protocol/{cmd}-response", {"id": 1, "ok": True, "result": result})
    assert any(p.pointer.startswith(pointer) for p in problems), problems


@pytest.mark.parametrize("doc", [
    {"id": 1, "cmd": "disclosure-start", "tools": [{"name": "@load"}]},
    {"id": 1, "cmd": "disclosure-step", "thread": "a", "calls": [{"load": 3}]},
    {"id": 1, "cmd": "disclosure-step", "thread": "a", "calls": [{"load": "a", "search": "b"}]},
    {"id": 1, "cmd": "disclosure-rebuild", "store": "lost"},
    {"id": 1, "cmd": "disclosure-trim", "thread": "a", "keep": -1},
    {"id": 1, "cmd": "disclosure-idle", "seconds": "long"},
], ids=["loader-name", "load-a-number", "two-calls-in-one", "unknown-store", "negative-keep", "seconds-a-word"])
def test_a_malformed_disclosure_request_is_a_malformed_document_never_another_exception(doc: Any) -> None:
    with pytest.raises(MalformedDocument):
        protocol.request_from_json(doc)


HELLO = b'{"id":1,"cmd":"hello","protocol_version":1,"spec_version":"1.0.0"}'


def test_the_reference_server_declares_its_options_and_answers_disclosure_without_a_start() -> None:
    session = Session(disclosure=Options.from_text("state_scope=instance"))
    before = session.answer(b'{"id":1,"cmd":"disclosure-request","thread":"main"}')
    hello = session.answer(HELLO)
    start = session.answer(json.dumps(protocol.request_for(2, CATALOGUE).to_json()).encode())
    request = session.answer(b'{"id":3,"cmd":"disclosure-request","thread":"main"}')
    assert before["error"]["code"] == "out-of-order"
    assert hello["result"]["disclosure"]["state_scope"] == "instance"
    assert check_message("protocol/hello-response", hello) == []
    assert start == {"id": 2, "ok": True, "result": {}}
    assert request == {"id": 3, "ok": True, "result": {"tools": ["@load", "@unload", "clock"]}}


def test_an_event_the_declared_options_do_not_offer_is_refused_as_not_applicable() -> None:
    session = Session()
    session.answer(HELLO)
    session.answer(json.dumps(protocol.request_for(2, CATALOGUE).to_json()).encode())
    cleared = session.answer(b'{"id":3,"cmd":"disclosure-clear","thread":"main"}')
    stepped = session.answer(b'{"id":4,"cmd":"disclosure-step","thread":"b","calls":[{"list":null}]}')
    assert (cleared["error"]["code"], stepped["error"]["code"]) == ("not-applicable", "not-applicable")
    assert "no host-side clear" in cleared["error"]["message"]
    assert check_message("protocol/error-response", cleared) == []


@pytest.mark.slow
def test_serve_reference_takes_its_declaration_on_the_command_line_and_refuses_a_bad_one() -> None:
    adapter = StdioAdapter([sys.executable, "-m", "conformance", "serve-reference", "--disclosure",
                            "state_scope=messages,order=catalogue"], timeout=30.0)
    with adapter:
        assert adapter.hello().disclosure == Options.from_text("state_scope=messages,order=catalogue")
        assert adapter.send(CATALOGUE) == {}
        assert adapter.send(Request())["tools"] == ["@load", "@unload", "clock"]
    bad = StdioAdapter([sys.executable, "-m", "conformance", "serve-reference", "--disclosure", "state_scope=galaxy"],
                       timeout=30.0)
    with bad, pytest.raises(ImplementationFailed) as raised:
        bad.hello()
    assert raised.value.kind is FailureKind.EXITED and "state_scope" in raised.value.detail


def documented_session() -> tuple[list[str], list[str]]:
    """The requests and answers of the disclosure session in docs/protocol.md."""
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- disclosure-transcript:start -->", 1)[1].split("<!-- disclosure-transcript:end -->", 1)[0]
    lines = block.splitlines()
    return [line[2:] for line in lines if line.startswith("→ ")], [line[2:] for line in lines if line.startswith("← ")]


@pytest.mark.slow
def test_the_disclosure_session_in_the_protocol_docs_is_what_serve_reference_answers_today() -> None:
    requests, answers = documented_session()
    assert len(requests) == len(answers) >= 6 and any('"disclosure-step"' in r for r in requests)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-m", "conformance", "serve-reference"], input="\n".join(requests) + "\n",
                          capture_output=True, text=True, env=env, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == answers
