"""The implementer's guide (docs/guides/implementing.md) shows only exchanges the reference really has.

Every example block is a ```text fence preceded by ``<!-- example: SESSION [--no-text] -->`` and
holds ``→ request`` / ``← response`` line pairs. Each line is checked against its protocol schema
(a request the reference refuses as ``invalid-request`` must fail its schema; one it refuses as
``invalid-json`` must not be JSON), and the blocks of one session, in page order, are replayed
against one reference session (``pas serve-reference``, in-process): each answer must be the
line shown, byte for byte.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from conformance.adapters import protocol
from conformance.adapters.protocol.wire import encode
from conformance.adapters.serve import Session
from conformance.documents.loader import YamlDocument
from conformance.documents.schemas import check_against
from reference_impl.disclosure_options import Options

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "guides" / "implementing.md"
TWIN = ROOT / "docs" / "guides" / "implementing.zh.md"
_BLOCK = re.compile(r"<!-- example: (?P<session>[\w-]+)(?P<flags>(?: --[\w-]+(?:=[\w=,+-]+)?)*) -->\n```text\n(?P<body>.*?)```",
                    re.S)


@dataclass(frozen=True, slots=True)
class Exchange:
    session: str
    text: bool
    request: str
    response: str
    disclosure: str = ""  # the session's --disclosure=OPTIONS, served as pas serve-reference --disclosure OPTIONS


def _blocks(path: Path) -> list[re.Match[str]]:
    return list(_BLOCK.finditer(path.read_text(encoding="utf-8")))


def _exchanges(path: Path) -> list[Exchange]:
    found = []
    for block in _blocks(path):
        lines = block["body"].splitlines()
        assert len(lines) % 2 == 0 and lines, f"example block of {block['session']} is not →/← pairs"
        for request, response in zip(lines[::2], lines[1::2]):
            assert request.startswith("→ ") and response.startswith("← "), (request, response)
            options = re.search(r"--disclosure=(\S+)", block["flags"])
            found.append(Exchange(session=block["session"], text="--no-text" not in block["flags"],
                                  request=request[2:], response=response[2:], disclosure=options[1] if options else ""))
    return found


EXCHANGES = _exchanges(GUIDE)


def _schema_problems(schema: str, doc: Any) -> list[str]:
    return [f"{p.pointer}: {p.message}" for p in check_against(schema, YamlDocument(value=doc, path=schema))]


def test_the_guide_has_examples_of_every_command_and_error_code():
    cmds = set()
    codes = set()
    for exchange in EXCHANGES:
        try:
            cmds.add(json.loads(exchange.request).get("cmd"))
        except ValueError:
            pass
        answer = json.loads(exchange.response)
        if answer["ok"] is False:
            codes.add(answer["error"].get("code"))
    assert set(protocol.COMMANDS) <= cmds, sorted(set(protocol.COMMANDS) - cmds)
    assert {"invalid-json", "invalid-request", "unknown-command", "out-of-order", "unsupported-protocol-version",
            "not-applicable"} <= codes


@pytest.mark.parametrize("exchange", EXCHANGES, ids=lambda e: f"{e.session}:{e.request[:40]}")
def test_each_example_line_matches_its_protocol_schema(exchange):
    answer = json.loads(exchange.response)
    try:
        request = json.loads(exchange.request)
    except ValueError:
        assert answer["ok"] is False and answer["error"]["code"] == "invalid-json"
        assert answer["id"] is None
        request = None
    cmd = request.get("cmd") if isinstance(request, dict) else None
    if cmd in protocol.MESSAGES:
        problems = _schema_problems(protocol.request_schema(cmd), request)
        refused = answer["ok"] is False and answer["error"].get("code") == "invalid-request"
        assert bool(problems) == refused, problems or "a request the reference refuses should fail its schema"
        response_schema = protocol.response_schema(cmd, answer)
    else:
        assert answer["ok"] is False, "only an error can answer a request that is not a command"
        response_schema = "protocol/error-response"
    assert _schema_problems(response_schema, answer) == []


@pytest.mark.parametrize("session", sorted({e.session for e in EXCHANGES}))
def test_the_reference_answers_each_example_exactly_as_shown(session):
    exchanges = [e for e in EXCHANGES if e.session == session]
    assert len({e.text for e in exchanges}) == 1, f"session {session} is marked --no-text only in some blocks"
    assert len({e.disclosure for e in exchanges}) == 1, f"session {session} has two --disclosure flags"
    served = Session(text=exchanges[0].text, disclosure=Options.from_text(exchanges[0].disclosure))
    for exchange in exchanges:
        answer = encode(served.answer(exchange.request.encode("utf-8"))).decode("utf-8")
        assert answer == exchange.response + "\n", f"→ {exchange.request}"


def test_the_translation_shows_the_same_examples():
    assert [b.group(0) for b in _blocks(TWIN)] == [b.group(0) for b in _blocks(GUIDE)]
