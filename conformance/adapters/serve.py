"""The reference implementation as a stdio implementation of the PAS protocol (docs/protocol.md).

This is the example to copy when writing an implementation in another language: read
one JSON object per line from stdin, answer each with exactly one JSON line on stdout
(flushed), log only to stderr, and answer ``ok: false`` instead of dying on bad input.

    python -m conformance serve-reference     # or: python -m conformance.adapters.serve

``pas serve-reference --disclosure 'state_scope=instance'`` declares (and runs under) other
disclosure options than the defaults.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

from conformance.adapters import protocol
from conformance.adapters.known_requests import KnownRequests
from conformance.adapters.protocol.disclosure_messages import DisclosureRequest
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
from conformance.adapters.warm_up import warm_up
from reference_impl.disclosure import NotApplicable
from reference_impl.disclosure_answers import DisclosureObservation, Done, StepObservation, ToolsObservation
from reference_impl.disclosure_options import Options
from reference_impl.engine import Engine
from reference_impl.errors import MalformedDocument
from reference_impl.events import Observation
from reference_impl.host_observations import HostObservation
from reference_impl.model import ImplementationInfo

#: The requests the reference takes ahead (its hello's ``pipeline_depth``): it reads whatever has
#: arrived and answers in order, so any depth would do; 1 makes it strictly in turn.
PIPELINE_DEPTH = 64
_CHUNK = 65536


class Session:
    """One implementation process: the handshake state and the engine it drives.

    ``pipeline_depth`` is announced in the hello answer (see :data:`PIPELINE_DEPTH`).
    """

    def __init__(self, *, text: bool = True, pipeline_depth: int = PIPELINE_DEPTH,
                 disclosure: Options | None = None) -> None:
        self.engine = Engine(text=text, disclosure=disclosure)
        self.pipeline_depth = pipeline_depth
        # --no-text keeps its documented meaning: an implementation claiming only activation.
        info = self.engine.info
        self.info = info if text else ImplementationInfo(name=info.name, version=info.version, language=info.language,
                                                         profiles=("activation",))
        self.greeted = False
        self.started = False
        self.done = False
        self._checked = CheckedBodies()
        self._known = KnownRequests()

    def answer(self, line: bytes) -> dict[str, Any]:
        """The response to one request line (never raises).

        A line whose body was read before under another id is not read again (KnownRequests): its
        request is carried out and answered under the line's own id.
        """
        request: protocol.Request | None = None
        request_id: int | None
        if (known := self._known.get(line)) is not None:
            request_id, request = known
        else:
            try:
                doc = decode(line)
            except ValueError as error:  # also covers bytes that are not UTF-8
                return _error(None, "invalid-json", f"request is not JSON: {error}")
            request_id = _request_id(doc)
        try:
            if request is None:
                request = _read_request(doc, line if request_id is not None else None, self._checked)
                if request_id is not None:
                    self._known.add(line, request_id, request)
            answer: dict[str, Any] = self._dispatch(request).to_json()
        except _Refused as refusal:
            return _error(request_id, refusal.code, refusal.message)
        except Exception as error:  # noqa: BLE001 - an internal bug must still produce an answer, not a traceback
            return _error(request_id, "internal-error", repr(error))
        answer["id"] = request_id  # the first key of every answer: it stays first (a known request carries an older id)
        return answer

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
            return HelloResponse(id=request.id, info=self.info, pipeline_depth=self.pipeline_depth)
        if not self.greeted:
            raise _Refused("out-of-order", "send 'hello' first")
        if isinstance(request, HostRequest):  # host-load begins a host scenario: no start
            answered = self.engine.apply(request.command)
            assert isinstance(answered, HostObservation)  # the host answers a host command
            return request.answer(answered)
        if isinstance(request, DisclosureRequest):  # disclosure-start begins a disclosure scenario: no start
            return request.answer(self._disclose(request))
        if isinstance(request, StartRequest):
            self.engine.start(request.plugins, request.host)
            self.started = True
            return StartResponse(id=request.id)
        if not self.started:
            raise _Refused("out-of-order", f"send 'start' before {request.cmd!r}")
        observation = self.engine.apply(request.event)
        assert isinstance(observation, Observation)  # the scheduler answers an event
        return request.answer(observation)


    def _disclose(self, request: DisclosureRequest) -> DisclosureObservation:
        """The engine's observation of a disclosure event; one its options do not offer is refused."""
        try:
            answered = self.engine.apply(request.event)
        except NotApplicable as error:
            raise _Refused("not-applicable", str(error)) from None
        assert isinstance(answered, (ToolsObservation, StepObservation, Done))  # the rules answer a disclosure event
        return answered


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


def _batches(stdin: Iterable[bytes]) -> Iterator[list[bytes]]:
    """The input's lines, a batch at a time: the lines one read brought (a runner that writes requests
    ahead sends several at once), or one by one from an input that cannot say what has arrived."""
    read1 = getattr(stdin, "read1", None)
    if read1 is None:
        for line in stdin:
            yield [line]
        return
    rest = b""
    while chunk := read1(_CHUNK):
        lines = (rest + chunk).split(b"\n")
        rest = lines.pop()
        if lines:
            yield lines
    if rest:
        yield [rest]


def serve(stdin: BinaryIO | Iterable[bytes], stdout: BinaryIO, *, text: bool = True,
          pipeline_depth: int = PIPELINE_DEPTH, disclosure: Options | None = None) -> int:
    """Answer requests from ``stdin`` on ``stdout`` until ``bye`` or end of input; returns 0.

    The answers to the requests that arrived together are written together, in order, and
    flushed: one at a time, strictly in turn, to a runner that waits for each answer.
    ``disclosure``: the options to declare and run under (the defaults when None).
    """
    session = Session(text=text, pipeline_depth=pipeline_depth, disclosure=disclosure)
    warmed = False
    for lines in _batches(stdin):
        answers = []
        for line in lines:
            if line.strip():
                answers.append(encode(session.answer(line)))
                if session.done:
                    break
        if answers:
            stdout.write(b"".join(answers))
            stdout.flush()
        if session.done:
            break
        if session.greeted and not warmed:  # greeted: the runner loads its suite now, the first scenario comes next
            warmed = True
            warm_up(stdin)
    return 0


def main() -> int:
    """Serve on the process's own stdin and stdout."""
    return serve(sys.stdin.buffer, sys.stdout.buffer)


if __name__ == "__main__":
    sys.exit(main())
