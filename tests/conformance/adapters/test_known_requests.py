"""The reference server's requests read before (KnownRequests), its warm-up, and the runner's quick duplicate-key answer.

Each spares work only: whatever line comes, the answer is the one the full reading gives. How
often they spare it is counted by bench/caches.py.
"""

from __future__ import annotations

import io
import json
import os
from typing import Any

import msgspec
import pytest

from conformance.adapters.known_requests import KnownRequests
from conformance.adapters.protocol.messages import StartRequest
from conformance.adapters.protocol.strict import duplicate_key
from conformance.adapters.serve import Session
from reference_impl.model import HostConfig, Manifest

WEATHER = Manifest.from_json({
    "name": "Weather", "module_name": "weather", "version": "1.0.0", "description": "Weather.",
    "allow_sleep": True, "sleep_brief": "Weather for a city.",
    "methods": [{"name": "get_weather", "kind": "tool", "description": "Current weather."}],
})
HELLO = b'{"id":1,"cmd":"hello","protocol_version":1,"spec_version":"1.0.0"}'
START = json.dumps(StartRequest(id=2, plugins=(WEATHER,), host=HostConfig(enabled=("weather",), strategies={})).to_json(),
                   separators=(",", ":")).encode()
RUN = b',"cmd":"run","conversation":"main"}'
ACTIVATE = b',"cmd":"activate","conversation":"main","module_name":"weather"}'


def answers(lines: list[bytes], *, known: bool = True) -> list[dict[str, Any]]:
    """The answers of one session to ``lines``; with ``known=False`` every line is read in full."""
    session = Session()
    if not known:
        session._known.get = lambda line: None  # type: ignore[method-assign]
    return [session.answer(line) for line in lines]


# Each follows a line with the same body under id 3, so that a cache hit is possible.
TRICKY = {
    "another id": b'{"id":4' + RUN,
    "a leading zero (no JSON)": b'{"id":04' + RUN,
    "id zero": b'{"id":0' + RUN,
    "a negative id": b'{"id":-4' + RUN,
    "a fraction": b'{"id":4.0' + RUN,
    "an id past 64 bits": b'{"id":123456789012345678901234567890' + RUN,
    "a space after the colon": b'{"id": 4' + RUN,
    "a second id key in the body": b'{"id":4,"cmd":"run","conversation":"main","id":9}',
    "a second id key spelt with an escape": b'{"id":4,"cmd":"run","conversation":"main","\\u0069d":9}',
}


@pytest.mark.parametrize("line", TRICKY.values(), ids=TRICKY.keys())
def test_a_body_read_before_is_answered_as_the_full_reading_answers_it(line: bytes) -> None:
    before = line.replace(line[: line.index(b",")], b'{"id":3', 1)
    lines = [HELLO, START, before, line, b'{"id":7' + ACTIVATE, b'{"id":8' + ACTIVATE, b'{"id":9' + RUN]
    assert answers(lines) == answers(lines, known=False)


def test_a_body_read_before_is_not_read_again_and_is_answered_under_its_new_id() -> None:
    session = Session()
    for line in (HELLO, START, b'{"id":3' + RUN):
        session.answer(line)
    session._known.get = lambda line, get=session._known.get: get(line) or pytest.fail(f"read again: {line!r}")  # type: ignore[method-assign]
    assert session.answer(b'{"id":4' + RUN)["id"] == 4
    assert session.answer(b'{"id":12345' + RUN)["id"] == 12345


def test_a_second_id_in_a_body_keeps_it_out() -> None:
    known = KnownRequests()
    for request_id, line in enumerate((b'{"id":1,"cmd":"run","id":1}', b'{"id":2,"cmd":"run","\\u0069d":2}'), 1):
        known.add(line, request_id, object())
        assert known.get(line) is None


def test_a_line_whose_id_json_reads_otherwise_is_not_kept() -> None:
    known = KnownRequests()
    known.add(b'{"id":3' + RUN, 5, object())  # a caller that read id 5 from it: not this line's plain id
    assert known.get(b'{"id":3' + RUN) is None


# ------------------------------------------------------------------ duplicate keys, read quickly or key by key

@pytest.mark.parametrize("line", [
    b'{"id":5,"ok":true,"ok":true,"result":{}}',
    b'{"id":5,"ok":true,"result":{"a":1,"a":1}}',
    b'{"id":5,"ok":true,"result":{"plugins":[{"x":1},{"x":2,"x":2}]}}',
])
def test_a_key_twice_is_found_with_the_value_read_too(line: bytes) -> None:
    assert duplicate_key(line, msgspec.json.decode(line)) == duplicate_key(line) is not None


@pytest.mark.parametrize("line", [
    b'{"id":5,"ok":true,"result":{}}',
    b'{"id": 5, "ok": true, "result": {}}',
    b'{"id":5,"ok":true,"result":{"text":"\\u00e9","n":1.50}}',
])
def test_a_line_without_a_key_twice_has_none_read_either_way(line: bytes) -> None:
    assert duplicate_key(line, msgspec.json.decode(line)) is None and duplicate_key(line) is None


# ------------------------------------------------------------------ the warm-up after hello

def test_the_warm_up_takes_every_step_while_nothing_waits_and_none_once_a_request_does() -> None:
    from conformance.adapters import protocol
    from conformance.adapters.warm_up import warm_up

    read, write = os.pipe()
    try:
        with os.fdopen(read, "rb", closefd=False) as stdin:
            assert warm_up(stdin) == len(protocol.COMMANDS) + 1  # each request schema's checker, then jsonschema
            os.write(write, b'{"id":2,"cmd":"bye"}\n')
            assert warm_up(stdin) == 0
    finally:
        os.close(read)
        os.close(write)
    assert warm_up(io.BytesIO(b"")) == 0  # an input that cannot say whether a request waits: no warm-up
