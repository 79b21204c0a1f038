"""PAS stdio protocol v1: every wire command's request and response class, found by command name.

Every request is ``{"id": n, "cmd": "<command>", ...}``; every answer is either the
command's response ``{"id": n, "ok": true, "result": {...}}`` or an error response
``{"id": n, "ok": false, "error": {"message": ..., "code": ...}}``. docs/protocol.md is
the prose specification. The classes live in :mod:`conformance.adapters.protocol.messages` (the
session and the activation profile) and :mod:`conformance.adapters.protocol.host` (the host
profile); framing and schema checks in :mod:`conformance.adapters.protocol.wire`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from conformance.adapters.protocol.host import HOST_REQUESTS, HOST_RESPONSES, HostRequest, HostResponse
from conformance.adapters.protocol.messages import (
    EVENT_REQUESTS,
    EVENT_RESPONSES,
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
from reference_impl.errors import MalformedDocument
from reference_impl.events import Event
from reference_impl.host_commands import HostCommand, is_host_command

REQUESTS: Final[Mapping[str, type]] = {
    HelloRequest.cmd: HelloRequest, StartRequest.cmd: StartRequest, **EVENT_REQUESTS, **HOST_REQUESTS,
    ByeRequest.cmd: ByeRequest,
}
RESPONSES: Final[Mapping[str, type]] = {
    HelloResponse.cmd: HelloResponse, StartResponse.cmd: StartResponse, **EVENT_RESPONSES, **HOST_RESPONSES,
    ByeResponse.cmd: ByeResponse,
}
COMMANDS: Final = tuple(REQUESTS)
Request = HelloRequest | StartRequest | EventRequest | HostRequest | ByeRequest
Response = HelloResponse | StartResponse | ByeResponse | ObservationResponse | HostResponse | ErrorResponse


def request_for(request_id: int, event: Event | HostCommand) -> EventRequest | HostRequest:
    """The request that carries ``event`` (or a host command); raises TypeError for anything else."""
    if is_host_command(event):
        return HOST_REQUESTS[event.cmd](id=request_id, command=event)
    request_type = EVENT_REQUESTS.get(getattr(event, "cmd", None))
    if request_type is None:
        raise TypeError(f"not a PAS event: {event!r}")
    return request_type(id=request_id, event=event)


def request_from_json(doc: Any) -> Request:
    """Read any request; raises MalformedDocument for an unknown ``cmd`` or a wrong shape."""
    if not isinstance(doc, Mapping):
        raise MalformedDocument(field="", reason="a request must be a JSON object")
    request_type = REQUESTS.get(doc.get("cmd")) if isinstance(doc.get("cmd"), str) else None
    if request_type is None:
        raise MalformedDocument(field="cmd", reason=f"must be one of {', '.join(COMMANDS)}, not {doc.get('cmd')!r}")
    return request_type.from_json(doc)


def response_schema(cmd: str, doc: Mapping[str, Any]) -> str:
    """The schema an answer to ``cmd`` must match: the error schema when ``ok`` is false."""
    return ErrorResponse.schema if doc.get("ok") is False else RESPONSES[cmd].schema


def response_from_json(cmd: str, doc: Any) -> Response:
    """Read the answer to a ``cmd`` request; raises MalformedDocument on a wrong shape."""
    if not isinstance(doc, Mapping):
        raise MalformedDocument(field="", reason="a response must be a JSON object")
    if doc.get("ok") is False:
        return ErrorResponse.from_json(doc)
    return RESPONSES[cmd].from_json(doc)
