"""The host profile on the wire: one typed message class and one schema per host command,
the reference server answering them without a start, and the documented host session."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conformance.adapters import protocol
from conformance.adapters.implementation import ImplementationFailed
from conformance.adapters.protocol.host_messages import HostRequest, HostResponse
from conformance.adapters.protocol.wire import check_message, encode
from conformance.adapters.serve import Session
from conformance.adapters.stdio import StdioAdapter
from reference_impl.engine import Engine
from reference_impl.errors import MalformedDocument
from reference_impl.host_commands import (
    COMMAND_TYPES,
    Behaviour,
    Dispatch,
    Load,
    OpenConversation,
    ReadConfig,
    Reload,
    Start,
    Stop,
)
from reference_impl.model import HostConfig, Manifest

ROOT = Path(__file__).resolve().parents[4]
SCHEMAS = ROOT / "spec" / "schemas" / "protocol"
DOC = ROOT / "docs" / "protocol.md"
FAKES = ROOT / "tests" / "fakes"

MEMORY = Manifest.from_json({"name": "Memory", "module_name": "memory", "version": "1.0.0", "description": "M.",
                             "hooks": ["session_end"], "config": {"defaults": {"store": {"kind": "ram"}}}})
NOTES = Manifest.from_json({"name": "Notes", "module_name": "notes", "version": "1.0.0", "description": "N.",
                            "dependencies": ["memory", "vault"], "hooks": ["session_end"]})
LOAD = Load(plugins=(NOTES, MEMORY), host=HostConfig(enabled=("notes", "memory", "ghost")),
            environment={"PAS__MEMORY__STORE__KIND": "disk"}, overrides=("memory.size=3",),
            behaviour=Behaviour(hook_raises={"memory": frozenset({"session_end"})}))
COMMANDS = (LOAD, Start(), Dispatch(hook="session_end", conversation="c1", payload={"n": 1}),
            OpenConversation(conversation="c2"), Reload(module_name="memory"), ReadConfig(module_name="memory"),
            ReadConfig(module_name="ghost"), Stop())


def answered() -> list[tuple[Any, Any]]:
    """Every sample command with the reference's typed request and response."""
    engine = Engine()
    pairs = []
    for index, command in enumerate(COMMANDS, 1):
        request = protocol.request_for(index, command)
        pairs.append((request, request.answer(engine.apply(command))))
    return pairs


def test_every_host_command_has_a_request_a_response_and_two_schema_files() -> None:
    assert {cmd: protocol.MESSAGES[cmd] for cmd in COMMAND_TYPES} == {cmd: (HostRequest, HostResponse) for cmd in COMMAND_TYPES}
    for (request, response), cmd in zip(answered(), [c.cmd for c in COMMANDS], strict=True):
        assert (request.cmd, request.schema) == (cmd, f"protocol/{cmd}-request")
        assert (response.cmd, response.schema) == (cmd, f"protocol/{cmd}-response")
    for cmd in COMMAND_TYPES:
        assert (SCHEMAS / f"{cmd}-request.schema.yaml").is_file() and (SCHEMAS / f"{cmd}-response.schema.yaml").is_file()


@pytest.mark.parametrize(("request_", "response"), answered(), ids=lambda m: getattr(m, "cmd", ""))
def test_host_messages_round_trip_through_json_and_match_their_schemas(request_: Any, response: Any) -> None:
    request_doc = json.loads(encode(request_.to_json()))
    response_doc = json.loads(encode(response.to_json()))
    assert protocol.request_from_json(request_doc) == request_
    assert protocol.response_from_json(request_.cmd, response_doc) == response
    assert check_message(request_.schema, request_doc) == []
    assert check_message(response.schema, response_doc) == []


def test_a_host_observation_without_provenance_or_origins_is_still_read() -> None:
    doc = {"id": 5, "ok": True, "result": {"events": [], "problems": [
        {"code": "plugin-not-found", "severity": "warning", "message": "m", "plugins": ["x"]}],
        "config": {"a": {"b": 1}}}}
    assert check_message("protocol/host-read-config-response", doc) == []
    observation = HostResponse.from_json(doc, cmd="host-read-config").observation
    assert observation.config.provenance == {} and observation.problems[0].origin is None


@pytest.mark.parametrize(("cmd", "result", "pointer"), [
    ("host-start", {"events": [{"event": "loaded", "module_name": "a"}], "problems": []}, "/result/events/0/event"),
    ("host-dispatch", {"events": [], "problems": [], "extra": 1}, "/result/extra"),
    ("host-load", {"events": [], "problems": [{"code": "Bad Code", "severity": "error", "message": "m",
                                                "plugins": []}]}, "/result/problems/0/code"),
    ("host-reload", {"events": [{"event": "reloaded", "module_name": "a", "generation": 0}], "problems": []},
     "/result/events/0/generation"),
    ("host-read-config", {"events": [], "problems": [], "config": {}, "provenance": {"/a": {"layer": "cli"}}},
     "/result/provenance/~1a/layer"),
], ids=["unknown-event", "extra-key", "bad-code", "generation-zero", "unknown-layer"])
def test_host_response_schemas_refuse_what_a_host_must_not_send(cmd: str, result: Any, pointer: str) -> None:
    problems = check_message(f"protocol/{cmd}-response", {"id": 1, "ok": True, "result": result})
    assert pointer in [p.pointer for p in problems]


@pytest.mark.parametrize("doc", [
    {"id": 1, "cmd": "host-load", "plugins": "all", "host": {}},
    {"id": 1, "cmd": "host-load", "plugins": [], "host": {}, "environment": "PAS__X=1"},
    {"id": 1, "cmd": "host-reload", "module_name": "a", "extra": True},
    {"id": 1, "cmd": "host-dispatch"},
], ids=["plugins-not-a-list", "environment-not-a-mapping", "unknown-field", "no-hook"])
def test_a_malformed_host_request_is_a_malformed_document_never_another_exception(doc: Any) -> None:
    with pytest.raises(MalformedDocument):
        protocol.request_from_json(doc)


def test_request_for_carries_host_commands_and_still_refuses_anything_else() -> None:
    assert protocol.request_for(3, Stop()).to_json() == {"id": 3, "cmd": "host-stop"}
    assert protocol.request_for(4, ReadConfig(module_name="m")).to_json() == {
        "id": 4, "cmd": "host-read-config", "module_name": "m"}
    with pytest.raises(TypeError):
        protocol.request_for(5, "host-stop")


HELLO = b'{"id":1,"cmd":"hello","protocol_version":1,"spec_version":"1.0.0"}'


def test_the_reference_server_answers_host_commands_without_a_start_and_refuses_them_before_hello() -> None:
    session = Session()
    before = session.answer(b'{"id":1,"cmd":"host-start"}')
    hello = session.answer(HELLO)
    load = session.answer(json.dumps(protocol.request_for(2, LOAD).to_json()).encode())
    assert before["error"]["code"] == "out-of-order"
    assert hello["result"]["profiles"] == ["activation", "text", "host", "disclosure"]
    assert load["ok"] is True and load["result"]["load_order"] == ["notes", "memory"]
    assert check_message("protocol/host-load-response", load) == []


def test_a_bad_host_request_gets_an_invalid_request_answer_and_the_session_carries_on() -> None:
    session = Session()
    session.answer(HELLO)
    bad = session.answer(b'{"id":2,"cmd":"host-dispatch","hook":"Not A Hook"}')
    good = session.answer(b'{"id":3,"cmd":"host-stop"}')
    assert (bad["id"], bad["error"]["code"]) == (2, "invalid-request")
    assert good == {"id": 3, "ok": True, "result": {"events": [], "problems": []}}


def test_without_text_the_reference_server_still_claims_activation_only() -> None:
    hello = Session(text=False).answer(HELLO)
    assert hello["result"]["profiles"] == ["activation"]


@pytest.mark.slow
def test_a_host_answer_that_breaks_its_schema_is_an_implementation_failure_over_stdio(tmp_path) -> None:
    script = tmp_path / "bad_host.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    request = json.loads(line)\n"
        "    if request['cmd'] == 'hello':\n"
        "        result = {'name': 'bad', 'version': '1', 'language': 'python', 'profiles': ['host'],"
        " 'protocol_version': 1}\n"
        "    else:\n"
        "        result = {'events': [{'event': 'loaded'}], 'problems': []}\n"
        "    print(json.dumps({'id': request['id'], 'ok': True, 'result': result}), flush=True)\n",
        encoding="utf-8")
    with StdioAdapter([sys.executable, str(script)], timeout=5.0) as adapter:
        with pytest.raises(ImplementationFailed, match="does not match protocol/host-load-response"):
            adapter.send(LOAD)


def documented_host_session() -> tuple[list[str], list[str]]:
    """The requests and answers of the host session in docs/protocol.md."""
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- host-transcript:start -->", 1)[1].split("<!-- host-transcript:end -->", 1)[0]
    lines = block.splitlines()
    return [line[2:] for line in lines if line.startswith("→ ")], [line[2:] for line in lines if line.startswith("← ")]


@pytest.mark.slow
def test_the_host_session_in_the_protocol_docs_is_what_serve_reference_answers_today() -> None:
    requests, answers = documented_host_session()
    assert len(requests) == len(answers) >= 6 and any('"host-dispatch"' in r for r in requests)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-m", "conformance", "serve-reference"], input="\n".join(requests) + "\n",
                          capture_output=True, text=True, env=env, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == answers
