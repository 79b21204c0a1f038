"""PAS stdio protocol v1: every wire command, its request and its response, from one table.

Every request is ``{"id": n, "cmd": "<command>", ...}``; every answer is either the
command's response ``{"id": n, "ok": true, "result": {...}}`` or an error response
``{"id": n, "ok": false, "error": {"message": ..., "code": ...}}``. docs/protocol.md is
the prose specification. ``hello``, ``start`` and ``bye`` have their own classes
(:mod:`conformance.adapters.protocol.messages`); every event command is carried by
:class:`EventRequest` / :class:`ObservationResponse` and every ``host-*`` command by
:class:`HostRequest` / :class:`HostResponse` (:mod:`conformance.adapters.protocol.host_messages`), and every ``disclosure-*`` command by
:class:`DisclosureRequest` / :class:`DisclosureResponse`
(:mod:`conformance.adapters.protocol.disclosure_messages`), whose ``cmd`` is the event's or
command's own. Framing and schema checks live in
:mod:`conformance.adapters.protocol.wire`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

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
from conformance.adapters.protocol.wire import schema_name
from reference_impl.disclosure_commands import DISCLOSURE_EVENT_TYPES, DISCLOSURE_TYPES, DisclosureEvent
from reference_impl.errors import MalformedDocument
from reference_impl.events import EVENT_TYPES, Event
from reference_impl.host_commands import COMMAND_TYPES, HOST_COMMAND_TYPES, HostCommand

#: The one table: each wire command's request class and response class.
MESSAGES: Final[Mapping[str, tuple[type[Request], type[Response]]]] = {
    HelloRequest.cmd: (HelloRequest, HelloResponse),
    StartRequest.cmd: (StartRequest, StartResponse),
    **{cmd: (EventRequest, ObservationResponse) for cmd in EVENT_TYPES},
    # host-stop last, as a host's lifecycle goes (the order error messages and docs/protocol.md list them)
    **{cmd: (HostRequest, HostResponse) for cmd in sorted(COMMAND_TYPES, key=lambda cmd: cmd == "host-stop")},
    **{cmd: (DisclosureRequest, DisclosureResponse) for cmd in DISCLOSURE_EVENT_TYPES},
    ByeRequest.cmd: (ByeRequest, ByeResponse),
}
COMMANDS: Final = tuple(MESSAGES)
Request = HelloRequest | StartRequest | EventRequest | HostRequest | DisclosureRequest | ByeRequest
Response = (HelloResponse | StartResponse | ByeResponse | ObservationResponse | HostResponse | DisclosureResponse
            | ErrorResponse)


def request_schema(cmd: str) -> str:
    """The schema a ``cmd`` request must match (``protocol/<cmd>-request``); raises KeyError for an unknown command."""
    if cmd not in MESSAGES:
        raise KeyError(cmd)
    return schema_name(cmd, "request")


def response_schema(cmd: str, doc: Mapping[str, Any]) -> str:
    """The schema an answer to ``cmd`` must match: the error schema when ``ok`` is false."""
    return ErrorResponse.schema if doc.get("ok") is False else schema_name(cmd, "response")


def request_for(request_id: int, event: Event | HostCommand | DisclosureEvent) -> EventRequest | HostRequest | DisclosureRequest:
    """The request that carries ``event`` (or a host command, or a disclosure event); raises TypeError for anything else."""
    if isinstance(event, HOST_COMMAND_TYPES):
        return HostRequest(id=request_id, command=event)
    if isinstance(event, DISCLOSURE_TYPES):
        return DisclosureRequest(id=request_id, event=event)
    if not isinstance(event, tuple(EVENT_TYPES.values())):
        raise TypeError(f"not a PAS event: {event!r}")
    return EventRequest(id=request_id, event=event)


def request_from_json(doc: Any) -> Request:
    """Read any request; raises MalformedDocument for an unknown ``cmd`` or a wrong shape."""
    if not isinstance(doc, Mapping):
        raise MalformedDocument(field="", reason="a request must be a JSON object")
    cmd = doc.get("cmd")
    if not isinstance(cmd, str) or cmd not in MESSAGES:
        raise MalformedDocument(field="cmd", reason=f"must be one of {', '.join(COMMANDS)}, not {cmd!r}")
    request: Request = MESSAGES[cmd][0].from_json(doc)
    return request


def response_from_json(cmd: str, doc: Any) -> Response:
    """Read the answer to a ``cmd`` request; raises MalformedDocument on a wrong shape, KeyError for an unknown command."""
    if not isinstance(doc, Mapping):
        raise MalformedDocument(field="", reason="a response must be a JSON object")
    if doc.get("ok") is False:
        return ErrorResponse.from_json(doc)
    response_type = MESSAGES[cmd][1]
    if issubclass(response_type, ObservationResponse):
        response: Response = response_type.from_json(doc, cmd=cmd)
        return response
    return response_type.from_json(doc)
