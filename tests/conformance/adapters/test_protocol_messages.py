"""Protocol v1 messages: typed classes, their schemas, the reference server's answers, and the docs."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.adapters import protocol
from conformance.adapters.protocol.disclosure_messages import DisclosureRequest, DisclosureResponse
from conformance.adapters.protocol.host_messages import HostRequest, HostResponse
from conformance.adapters.protocol.messages import (
    ByeRequest,
    ByeResponse,
    ErrorResponse,
    EventRequest,
    HelloRequest,
    HelloResponse,
    ObservationResponse,
    StartRequest,
    StartResponse,
)
from conformance.adapters.protocol.wire import CheckedBodies, Unreadable, check_message, decode, encode
from conformance.adapters.serve import Session, serve
from reference_impl.disclosure_commands import DISCLOSURE_EVENT_TYPES
from reference_impl.engine import Engine
from reference_impl.errors import MalformedDocument
from reference_impl.events import (
    EVENT_TYPES,
    Activate,
    Disable,
    Enable,
    Extend,
    Restart,
    SetScheduler,
    SetStrategy,
    StartRun,
)
from reference_impl.host_commands import COMMAND_TYPES, Stop
from reference_impl.model import HostConfig, Manifest

ROOT = Path(__file__).resolve().parents[3]
PROTOCOL_SCHEMAS = ROOT / "spec" / "schemas" / "protocol"
DOC = ROOT / "docs" / "protocol.md"

WEATHER = Manifest.from_json({
    "name": "Weather", "module_name": "weather", "version": "1.0.0", "description": "Weather.",
    "allow_sleep": True, "sleep_brief": "Weather for a city.",
    "methods": [{"name": "get_weather", "kind": "tool", "description": "Current weather."}],
})
HOST = HostConfig(enabled=("weather",), strategies={})
EVENTS = {
    "run": StartRun(conversation="main", adapter="telegram"),
    "activate": Activate(conversation="main", module_name="weather", rounds=1),
    "extend": Extend(conversation="main", module_name="weather"),
    "set-strategy": SetStrategy(module_name="weather", strategy="no-such-strategy"),
    "enable": Enable(module_name="weather"),
    "disable": Disable(module_name="ghost"),
    "set-scheduler": SetScheduler(enabled=False),
    "restart": Restart(),
}


def sample_requests() -> list[Any]:
    return [
        HelloRequest(id=1, spec_version="1.0.0"),
        StartRequest(id=2, plugins=(WEATHER,), host=HOST),
        *(protocol.request_for(3 + i, event) for i, event in enumerate(EVENTS.values())),
        ByeRequest(id=99),
    ]


def sample_responses() -> list[Any]:
    engine = Engine()
    engine.start([WEATHER], HOST)
    observed = [protocol.request_for(3 + i, event).answer(engine.apply(event)) for i, event in enumerate(EVENTS.values())]
    return [
        HelloResponse(id=1, info=Engine.info),
        StartResponse(id=2),
        *observed,
        ByeResponse(id=99),
        ErrorResponse(id=7, message="unknown command 'x'", code="unknown-command"),
        ErrorResponse(id=None, message="request is not JSON"),
    ]


def cmd_of(message: Any) -> str:
    return getattr(message, "cmd", "error")


# ------------------------------------------------------------------ message classes


def test_every_wire_command_has_a_request_and_a_response_class() -> None:
    assert set(protocol.COMMANDS) == {"hello", "start", "bye", *EVENT_TYPES, *COMMAND_TYPES, *DISCLOSURE_EVENT_TYPES}
    # host messages are sampled in tests/conformance/suite/host_profile/test_host_protocol_messages.py,
    # disclosure messages in tests/conformance/adapters/test_disclosure_messages.py
    assert {cmd_of(r) for r in sample_requests()} == set(protocol.COMMANDS) - set(COMMAND_TYPES) - set(DISCLOSURE_EVENT_TYPES)


def test_events_and_host_commands_share_one_request_and_one_response_class_each() -> None:
    classes = set(protocol.MESSAGES.values())
    assert classes == {(HelloRequest, HelloResponse), (StartRequest, StartResponse), (ByeRequest, ByeResponse),
                       (EventRequest, ObservationResponse), (HostRequest, HostResponse),
                       (DisclosureRequest, DisclosureResponse)}
    assert {protocol.MESSAGES[cmd] for cmd in EVENT_TYPES} == {(EventRequest, ObservationResponse)}
    assert {protocol.MESSAGES[cmd] for cmd in DISCLOSURE_EVENT_TYPES} == {(DisclosureRequest, DisclosureResponse)}


@pytest.mark.parametrize("cmd", list(EVENTS))
def test_an_event_requests_command_and_schema_come_from_its_event(cmd: str) -> None:
    request = protocol.request_for(7, EVENTS[cmd])
    assert (type(request), request.cmd, request.schema) == (EventRequest, cmd, f"protocol/{cmd}-request")
    assert request.to_json()["cmd"] == cmd
    response = sample_responses()[2 + list(EVENTS).index(cmd)]
    assert (type(response), response.cmd, response.schema) == (ObservationResponse, cmd, f"protocol/{cmd}-response")


def test_every_message_schema_file_belongs_to_a_wire_command() -> None:
    files = {path.name.removesuffix(".schema.yaml") for path in PROTOCOL_SCHEMAS.glob("*.schema.yaml")}
    named = {schema.removeprefix("protocol/") for cmd in protocol.COMMANDS
             for schema in (protocol.request_schema(cmd), protocol.response_schema(cmd, {"ok": True}))}
    assert files == named | {"error-response", "common"}
    with pytest.raises(KeyError):
        protocol.request_schema("dance")


@pytest.mark.parametrize("request_", sample_requests(), ids=cmd_of)
def test_requests_round_trip_through_json_and_match_their_schema(request_: Any) -> None:
    doc = json.loads(encode(request_.to_json()))
    assert protocol.request_from_json(doc) == request_
    assert check_message(request_.schema, doc) == []


@pytest.mark.parametrize("response", sample_responses(), ids=cmd_of)
def test_responses_round_trip_through_json_and_match_their_schema(response: Any) -> None:
    doc = json.loads(encode(response.to_json()))
    assert protocol.response_from_json(cmd_of(response) if cmd_of(response) != "error" else "run", doc) == response
    assert check_message(response.schema, doc) == []


def test_a_request_of_one_command_never_matches_another_commands_schema() -> None:
    run = protocol.request_for(1, StartRun(conversation="main")).to_json()
    assert check_message("protocol/restart-request", run) != []


def test_schema_problems_point_at_the_offending_field() -> None:
    doc = {"id": 4, "ok": True, "result": {"outcome": "woken", "module_name": "w", "rounds": 1,
                                           "ends_step": True, "block": None}}
    problems = check_message("protocol/activate-response", doc)
    assert [(p.code, p.pointer) for p in problems] == [("protocol-schema", "/result/outcome")]


def test_an_error_response_may_carry_a_null_id_but_a_success_may_not() -> None:
    assert check_message("protocol/error-response", {"id": None, "ok": False, "error": {"message": "x"}}) == []
    assert check_message("protocol/start-response", {"id": None, "ok": True, "result": {}}) != []


def test_a_hello_response_claims_only_known_or_vendor_profiles() -> None:
    result = {"name": "n", "version": "1", "language": "go", "protocol_version": 1}
    good = {"id": 1, "ok": True, "result": {**result, "profiles": ["activation", "x-acme"]}}
    typo = {"id": 1, "ok": True, "result": {**result, "profiles": ["activaton"]}}
    assert check_message("protocol/hello-response", good) == []
    assert [p.pointer for p in check_message("protocol/hello-response", typo)] == ["/result/profiles/0"]


@pytest.mark.parametrize("doc", [
    [1, 2], {"id": 1}, {"id": 1, "cmd": "jump"}, {"id": 0, "cmd": "bye"}, {"id": True, "cmd": "bye"},
    {"id": 1, "cmd": "run"}, {"id": 1, "cmd": "start", "plugins": "all", "host": {}},
], ids=["array", "no-cmd", "unknown-cmd", "zero-id", "bool-id", "run-without-conversation", "plugins-not-list"])
def test_request_from_json_refuses_what_is_not_a_request(doc: Any) -> None:
    with pytest.raises(MalformedDocument):
        protocol.request_from_json(doc)


@pytest.mark.parametrize("cmd", protocol.COMMANDS)
def test_a_request_class_refuses_a_document_of_a_command_it_does_not_carry(cmd: str) -> None:
    with pytest.raises(MalformedDocument):
        protocol.MESSAGES[cmd][0].from_json({"id": 1, "cmd": "bye" if cmd != "bye" else "hello"})


def test_an_event_request_refuses_a_host_command_and_a_host_request_refuses_an_event() -> None:
    with pytest.raises(MalformedDocument):
        EventRequest.from_json({"id": 1, "cmd": "host-stop"})
    with pytest.raises(MalformedDocument):
        HostRequest.from_json({"id": 1, "cmd": "restart"})
    with pytest.raises(MalformedDocument):
        EventRequest.from_json({"id": 1, "cmd": ["run"]})
    assert HostRequest.from_json({"id": 1, "cmd": "host-stop"}) == protocol.request_for(1, Stop())


def test_request_for_refuses_an_object_that_is_not_an_event() -> None:
    with pytest.raises(TypeError):
        protocol.request_for(1, "run")


@pytest.mark.parametrize("line", [b"NaN", b'{"rounds": Infinity}', b"\xff{}", b"{"], ids=["nan", "infinity", "utf8", "truncated"])
def test_decode_accepts_only_strict_utf8_json(line: bytes) -> None:
    with pytest.raises(ValueError):
        decode(line)


@pytest.mark.parametrize(("line", "reason"), [
    (b'{"a":' * 10_000 + b"1" + b"}" * 10_000, "nesting too deep"), (b"[" * 10_000 + b"]" * 10_000, "nesting too deep"),
    (b'{"id":' + b"7" * 5000 + b"}", "integer too large"), (b"-" + b"1" * 4301, "integer too large"),
    (b"NaN", "not JSON"), (b"\xff{}", "not JSON"), (b"", "not JSON"),
], ids=["deep-objects", "deep-arrays", "huge-id", "huge-negative", "nan", "utf8", "empty"])
def test_decode_says_why_a_line_is_unreadable(line: bytes, reason: str) -> None:
    with pytest.raises(Unreadable) as caught:
        decode(line)
    assert caught.value.reason == reason


def test_decode_reads_what_is_just_within_the_limits() -> None:
    assert decode(b"[" * 500 + b"]" * 500) is not None
    assert decode(b'{"id":' + b"7" * 4300 + b"}")["id"] % 10 == 7


# How often CheckedBodies spares a check is speed, counted by bench/caches.py; these hold what it answers.
def test_a_body_found_valid_stays_valid_whatever_its_id() -> None:
    checked = CheckedBodies()
    for request_id in (3, 4, 5):
        line = b'{"id":%d,"cmd":"run","conversation":"main"}' % request_id
        assert checked.check("protocol/run-request", json.loads(line), line) == []


def test_an_invalid_body_gives_its_problems_every_time_and_so_does_a_line_without_a_leading_id() -> None:
    checked = CheckedBodies()
    bad = b'{"id":3,"cmd":"run","conversation":"main","extra":1}'
    first = checked.check("protocol/run-request", json.loads(bad), bad)
    assert first != [] and checked.check("protocol/run-request", json.loads(bad), bad) == first
    late = b'{"cmd":"run","conversation":"main","id":3,"extra":1}'
    first = checked.check("protocol/run-request", json.loads(late), late)
    assert first != [] and checked.check("protocol/run-request", json.loads(late), late) == first


def test_a_body_valid_for_one_schema_is_still_checked_against_another() -> None:
    checked = CheckedBodies()
    line = b'{"id":3,"ok":true,"result":{}}'
    assert checked.check("protocol/start-response", json.loads(line), line) == []
    assert checked.check("protocol/run-response", json.loads(line), line) != []


def test_the_reference_server_refuses_a_bad_id_even_on_a_body_it_has_seen() -> None:
    *_, good, bad = answers(HELLO, START, '{"id":3,"cmd":"run","conversation":"main"}',
                            '{"id":0,"cmd":"run","conversation":"main"}')
    assert good["ok"] is True
    assert (bad["ok"], bad["id"], bad["error"]["code"]) == (False, None, "invalid-request")


def test_encode_writes_one_compact_utf8_line() -> None:
    assert encode({"name": "笔记", "n": 1}) == '{"name":"笔记","n":1}\n'.encode()


# ------------------------------------------------------------------ the reference server


def answers(*lines: bytes | str) -> list[dict[str, Any]]:
    session = Session()
    return [session.answer(line.encode() if isinstance(line, str) else line) for line in lines]


HELLO = '{"id":1,"cmd":"hello","protocol_version":1,"spec_version":"1.0.0"}'
START = json.dumps(StartRequest(id=2, plugins=(WEATHER,), host=HOST).to_json())


@pytest.mark.parametrize(("line", "code", "request_id"), [
    (b"not json", "invalid-json", None),
    (b"\xff\xfe", "invalid-json", None),
    (b'"hello"', "invalid-request", None),
    (b'{"id":3,"cmd":"dance"}', "unknown-command", 3),
    (b'{"id":3,"cmd":"activate","conversation":"main","module_name":["weather"]}', "invalid-request", 3),
    (b'{"id":3,"cmd":"run","conversation":"main","extra":1}', "invalid-request", 3),
    (b'{"id":3,"cmd":"start","plugins":[{"name":"x"}],"host":{}}', "invalid-request", 3),
    (b'{"id":3,"cmd":"hello","protocol_version":2,"spec_version":"1.0.0"}', "unsupported-protocol-version", 3),
], ids=["text", "not-utf8", "string", "unknown", "bad-argument", "extra-field", "bad-manifest", "version"])
def test_the_reference_server_answers_bad_input_with_an_error_and_carries_on(line: bytes, code: str, request_id: Any) -> None:
    bad, after = answers(HELLO, START, line, '{"id":4,"cmd":"run","conversation":"main"}')[2:]
    assert (bad["ok"], bad["error"]["code"], bad["id"]) == (False, code, request_id)
    assert check_message("protocol/error-response", bad) == []
    assert after["ok"] is True


def test_the_reference_server_insists_on_hello_then_start() -> None:
    run = '{"id":5,"cmd":"run","conversation":"main"}'
    before_hello, _, before_start = answers(run, HELLO, run)
    assert before_hello["error"] == {"code": "out-of-order", "message": "send 'hello' first"}
    assert before_start["error"] == {"code": "out-of-order", "message": "send 'start' before 'run'"}


def test_an_internal_error_becomes_an_error_response_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    session = Session()
    session.answer(HELLO.encode())
    session.answer(START.encode())
    monkeypatch.setattr(session.engine, "apply", lambda event: 1 / 0)
    reply = session.answer(b'{"id":3,"cmd":"run","conversation":"main"}')
    assert reply == {"id": 3, "ok": False, "error": {"code": "internal-error", "message": "ZeroDivisionError('division by zero')"}}


def test_serve_stops_after_bye_and_skips_blank_lines() -> None:
    stdin = io.BytesIO(f'{HELLO}\n\n{{"id":2,"cmd":"bye"}}\n{HELLO}\n'.encode())
    stdout = io.BytesIO()
    assert serve(stdin, stdout) == 0
    replies = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert [r["id"] for r in replies] == [1, 2]


def test_without_text_the_reference_claims_only_activation_and_sends_no_text() -> None:
    session = Session(text=False)
    hello, _, run = (session.answer(line.encode()) for line in (HELLO, START, '{"id":3,"cmd":"run","conversation":"main"}'))
    assert hello["result"]["profiles"] == ["activation"]
    assert "text" not in run["result"]


# ------------------------------------------------------------------ the documented transcript


def documented_transcript() -> list[tuple[str, str]]:
    """The (direction, line) pairs of the transcript block in docs/protocol.md."""
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- transcript:start -->", 1)[1].split("<!-- transcript:end -->", 1)[0]
    lines = [line for line in block.splitlines() if line[:2] in ("→ ", "← ")]
    return [(line[0], line[2:]) for line in lines]


def test_the_transcript_in_the_docs_is_what_serve_reference_produces_today() -> None:
    transcript = documented_transcript()
    requests = [line for direction, line in transcript if direction == "→"]
    documented = [line for direction, line in transcript if direction == "←"]
    assert len(requests) >= 10 and len(documented) == len(requests)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    completed = subprocess.run(
        [sys.executable, "-m", "conformance", "serve-reference"], input="\n".join(requests).encode() + b"\n",
        capture_output=True, env=env, timeout=60, check=False,
    )
    assert completed.returncode == 0, completed.stderr.decode()
    assert completed.stdout.decode().splitlines() == documented


# The codec: msgspec for speed, the standard library for everything msgspec refuses (wire.decode, wire.encode).
# Each protocol rule holds whichever of the two reads or writes the line.

@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")], ids=["nan", "inf", "-inf"])
def test_encode_refuses_nan_and_infinity(value: float) -> None:
    with pytest.raises(ValueError):
        encode({"rounds": value})
    with pytest.raises(ValueError):
        encode({"result": {"nested": [1, value]}})


def test_a_lone_surrogate_is_unreadable_at_its_pointer_and_cannot_be_written() -> None:
    # msgspec refuses it; the standard library reads it, and the strict check (issue 30) refuses what it read.
    with pytest.raises(Unreadable) as caught:
        decode(b'{"name":"\\ud800"}')
    assert caught.value.reason == "lone surrogate" and caught.value.detail.startswith("/name: ")
    assert decode(b'{"name":"\\ud83d\\ude00"}') == {"name": "\U0001f600"}  # a pair is one character
    with pytest.raises(UnicodeEncodeError):
        encode({"name": "\ud800"})


def test_a_duplicate_key_keeps_the_last_value_as_the_standard_library_does() -> None:
    assert decode(b'{"id":1,"id":2}') == json.loads('{"id":1,"id":2}') == {"id": 2}


def test_a_byte_order_mark_is_not_json() -> None:
    with pytest.raises(Unreadable) as caught:
        decode(b'\xef\xbb\xbf{"id":1}')
    assert caught.value.reason == "not JSON" and "BOM" in caught.value.detail


def test_huge_integers_are_read_and_written_exactly() -> None:
    big = 7 * 10**40 + 3
    assert decode(b'{"id":%d}' % big) == {"id": big}
    assert encode({"id": big}) == b'{"id":%d}\n' % big
    assert decode(b'{"id":1e400}') == {"id": float("inf")}  # as the standard library reads it (msgspec refuses)


def test_floats_are_written_as_the_standard_library_writes_them() -> None:
    assert encode({"a": 1e20, "b": 0.1}) == b'{"a":1e+20,"b":0.1}\n'


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(value=st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=4))
def test_the_codec_writes_and_reads_what_the_standard_library_writes_and_reads(value: dict) -> None:
    try:
        expected = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode() + b"\n"
    except UnicodeEncodeError:
        with pytest.raises(UnicodeEncodeError):
            encode(value)
        return
    assert encode(value) == expected
    assert decode(expected.rstrip(b"\n")) == json.loads(expected)

