"""The reference implementation as a stdio implementation of the PAS protocol (docs/protocol.md).

This is the example to copy when writing an implementation in another language: read
one JSON object per line from stdin, answer each with exactly one JSON line on stdout
(flushed), log only to stderr, and answer ``ok: false`` instead of dying on bad input.

    python -m conformance serve-reference     # or: python -m conformance.adapters.serve
"""

from __future__ import annotations

import sys
from typing import Any, BinaryIO

from conformance.adapters import protocol
from conformance.adapters.protocol.host_messages import HostRequest
from conformance.adapters.protocol.messages import (
    ByeRequest,
    ByeResponse,
    ErrorResponse,
    HelloRequest,
    HelloResponse,
    StartRequest,
    StartResponse,
)
from conformance.adapters.protocol.wire import PROTOCOL_VERSION, CheckedBodies, check_message, decode, encode
from reference_impl.engine import Engine
from reference_impl.errors import MalformedDocument
from reference_impl.events import Observation
from reference_impl.host import HostObservation
from reference_impl.model import ImplementationInfo


class Session:
    """One implementation process: the handshake state and the engine it drives."""

    def __init__(self, *, text: bool = True) -> None:
        self.engine = Engine(text=text)
        # --no-text keeps its documented meaning: an implementation claiming only activation.
        profiles = Engine.info.profiles if text else ("activation",)
        self.info = ImplementationInfo(name=Engine.info.name, version=Engine.info.version,
                                       language=Engine.info.language, profiles=profiles)
        self.greeted = False
        self.started = False
        self.done = False
        self._checked = CheckedBodies()

    def answer(self, line: bytes) -> dict[str, Any]:
        """The response to one request line (never raises)."""
        try:
            doc = decode(line)
        except ValueError as error:  # also covers bytes that are not UTF-8
            return _error(None, "invalid-json", f"request is not JSON: {error}")
        request_id = _request_id(doc)
        try:
            return self._dispatch(_read_request(doc, line if request_id is not None else None, self._checked)).to_json()
        except _Refused as refusal:
            return _error(request_id, refusal.code, refusal.message)
        except Exception as error:  # noqa: BLE001 - an internal bug must still produce an answer, not a traceback
            return _error(request_id, "internal-error", repr(error))

    def _dispatch(self, request: protocol.Request) -> Any:
        if isinstance(request, ByeRequest):
            self.done = True
            return ByeResponse(id=request.id)
        if isinstance(request, HelloRequest):
            if request.protocol_version != PROTOCOL_VERSION:
                raise _Refused("unsupported-protocol-version",
                               f"this implementation speaks protocol version {PROTOCOL_VERSION}, "
                               f"not {request.protocol_version}")
            self.greeted = True
            return HelloResponse(id=request.id, info=self.info)
        if not self.greeted:
            raise _Refused("out-of-order", "send 'hello' first")
        if isinstance(request, HostRequest):  # host-load begins a host scenario: no start
            answered = self.engine.apply(request.command)
            assert isinstance(answered, HostObservation)  # the host answers a host command
            return request.answer(answered)
        if isinstance(request, StartRequest):
            self.engine.start(request.plugins, request.host)
            self.started = True
            return StartResponse(id=request.id)
        if not self.started:
            raise _Refused("out-of-order", f"send 'start' before {request.cmd!r}")
        observation = self.engine.apply(request.event)
        assert isinstance(observation, Observation)  # the scheduler answers an event
        return request.answer(observation)


class _Refused(Exception):
    """A request the session will not carry out: answered with an error response."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _error(request_id: int | None, code: str, message: str) -> dict[str, Any]:
    return ErrorResponse(id=request_id, code=code, message=message).to_json()


def _request_id(doc: Any) -> int | None:
    """The request's id when it has a valid one, for the error answer."""
    value = doc.get("id") if isinstance(doc, dict) else None
    return value if type(value) is int and value > 0 else None


def _read_request(doc: Any, line: bytes | None, checked: CheckedBodies) -> protocol.Request:
    """The typed request in ``doc``, checked against its schema; raises _Refused.

    ``line`` is the request line when its id is valid: then a body already found valid
    (``checked``) is not checked again.
    """
    cmd = doc.get("cmd") if isinstance(doc, dict) else None
    if not isinstance(doc, dict):
        raise _Refused("invalid-request", "a request must be a JSON object")
    if not isinstance(cmd, str) or cmd not in protocol.MESSAGES:
        raise _Refused("unknown-command", f"unknown command {cmd!r}; this implementation speaks "
                       + ", ".join(protocol.COMMANDS))
    schema = protocol.request_schema(cmd)
    problems = checked.check(schema, doc, line) if line is not None else check_message(schema, doc)
    if problems:
        raise _Refused("invalid-request", "; ".join(f"{p.pointer or '/'}: {p.message}" for p in problems))
    try:
        return protocol.request_from_json(doc)
    except MalformedDocument as error:
        raise _Refused("invalid-request", str(error)) from None


def serve(stdin: BinaryIO, stdout: BinaryIO, *, text: bool = True) -> int:
    """Answer requests from ``stdin`` on ``stdout`` until ``bye`` or end of input; returns 0."""
    session = Session(text=text)
    for line in stdin:
        if not line.strip():
            continue
        stdout.write(encode(session.answer(line)))
        stdout.flush()
        if session.done:
            break
    return 0


def main() -> int:
    """Serve on the process's own stdin and stdout."""
    return serve(sys.stdin.buffer, sys.stdout.buffer)


if __name__ == "__main__":
    sys.exit(main())
