"""PAS stdio protocol v1: the session's messages and the activation profile's, one typed class per wire command.

Every request is ``{"id": n, "cmd": "<command>", ...}``; every answer is either the
command's response ``{"id": n, "ok": true, "result": {...}}`` or an :class:`ErrorResponse`
``{"id": n, "ok": false, "error": {"message": ..., "code": ...}}``. The schema of each
message is ``spec/schemas/protocol/<cmd>-request`` / ``<cmd>-response`` (see ``schema``
on every class); docs/protocol.md is the prose specification. An event request carries an
event of ``reference_impl.events`` and is answered with its observation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from conformance.adapters.protocol.wire import PROTOCOL_VERSION, get_field, message_id, request_class, response_class
from reference_impl.errors import MalformedDocument
from reference_impl.events import (
    Activate,
    AdminObservation,
    CallObservation,
    Disable,
    Enable,
    Event,
    Extend,
    Restart,
    RunObservation,
    SetScheduler,
    SetStrategy,
    StartRun,
    event_from_json,
    observation_from_json,
)
from reference_impl.model import HostConfig, ImplementationInfo, Manifest


# ------------------------------------------------------------------ requests


@request_class("hello")
class HelloRequest:
    """``hello``: the first request on every process; the runner's protocol and spec versions."""

    id: int
    protocol_version: int = PROTOCOL_VERSION
    spec_version: str

    def to_json(self) -> dict[str, Any]:
        """The wire form."""
        return {"id": self.id, "cmd": self.cmd, "protocol_version": self.protocol_version,
                "spec_version": self.spec_version}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> HelloRequest:
        """Read the wire form; raises MalformedDocument on a wrong shape."""
        return cls(id=message_id(doc, cls.cmd), protocol_version=get_field(doc, "protocol_version", int),
                   spec_version=get_field(doc, "spec_version", str))


@request_class("start")
class StartRequest:
    """``start``: install ``plugins`` under ``host`` with empty state."""

    id: int
    plugins: tuple[Manifest, ...]
    host: HostConfig

    def to_json(self) -> dict[str, Any]:
        """The wire form."""
        return {"id": self.id, "cmd": self.cmd, "plugins": [m.to_json() for m in self.plugins],
                "host": self.host.to_json()}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> StartRequest:
        """Read the wire form; raises MalformedDocument on a wrong shape."""
        plugins = tuple(Manifest.from_json(m) for m in get_field(doc, "plugins", list))
        host = HostConfig.from_json(get_field(doc, "host", dict))
        return cls(id=message_id(doc, cls.cmd), plugins=plugins, host=host)


@request_class("bye")
class ByeRequest:
    """``bye``: answer, then exit with code 0."""

    id: int

    def to_json(self) -> dict[str, Any]:
        """The wire form."""
        return {"id": self.id, "cmd": self.cmd}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> ByeRequest:
        """Read the wire form; raises MalformedDocument on a wrong shape."""
        return cls(id=message_id(doc, cls.cmd))


@dataclass(frozen=True, slots=True, kw_only=True)
class EventRequest:
    """An event as a request: the event's JSON (reference_impl.events) plus the request id."""

    cmd: ClassVar[str] = ""
    schema: ClassVar[str] = ""
    id: int
    event: Event

    def to_json(self) -> dict[str, Any]:
        """The wire form: ``{"id": ..., **event.to_json()}``."""
        return {"id": self.id, **self.event.to_json()}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Any:
        """Read the wire form; raises MalformedDocument on a wrong shape."""
        request_id = message_id(doc, cls.cmd)
        return cls(id=request_id, event=event_from_json({k: v for k, v in doc.items() if k != "id"}))


@request_class("run")
class RunRequest(EventRequest):
    """``run``: a new agent run starts; answered with a run observation."""

    event: StartRun


@request_class("activate")
class ActivateRequest(EventRequest):
    """``activate``: the model calls activate_plugin; answered with a call observation."""

    event: Activate


@request_class("extend")
class ExtendRequest(EventRequest):
    """``extend``: the model calls extend_plugin_activation; answered with a call observation."""

    event: Extend


@request_class("set-strategy")
class SetStrategyRequest(EventRequest):
    """``set-strategy``: an admin sets a plugin's strategy."""

    event: SetStrategy


@request_class("enable")
class EnableRequest(EventRequest):
    """``enable``: an admin enables a plugin."""

    event: Enable


@request_class("disable")
class DisableRequest(EventRequest):
    """``disable``: an admin disables a plugin."""

    event: Disable


@request_class("set-scheduler")
class SetSchedulerRequest(EventRequest):
    """``set-scheduler``: an admin switches the scheduler on or off."""

    event: SetScheduler


@request_class("restart")
class RestartRequest(EventRequest):
    """``restart``: the host restarts; persisted state survives."""

    event: Restart


EVENT_REQUESTS: Final[Mapping[str, type]] = {
    t.cmd: t for t in (RunRequest, ActivateRequest, ExtendRequest, SetStrategyRequest, EnableRequest,
                       DisableRequest, SetSchedulerRequest, RestartRequest)
}


# ------------------------------------------------------------------ responses


@response_class("hello")
class HelloResponse:
    """The answer to ``hello``: who the implementation is and which protocol it speaks."""

    id: int
    info: ImplementationInfo
    protocol_version: int = PROTOCOL_VERSION

    def to_json(self) -> dict[str, Any]:
        """The wire form."""
        return {"id": self.id, "ok": True, "result": {**self.info.to_json(), "protocol_version": self.protocol_version}}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> HelloResponse:
        """Read the wire form; raises MalformedDocument on a wrong shape."""
        result = get_field(doc, "result", dict)
        return cls(id=message_id(doc), info=ImplementationInfo.from_json(result),
                   protocol_version=get_field(result, "protocol_version", int))


@dataclass(frozen=True, slots=True, kw_only=True)
class _EmptyResponse:
    """An answer with an empty result."""

    cmd: ClassVar[str] = ""
    schema: ClassVar[str] = ""
    id: int

    def to_json(self) -> dict[str, Any]:
        """The wire form."""
        return {"id": self.id, "ok": True, "result": {}}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Any:
        """Read the wire form; raises MalformedDocument on a wrong shape."""
        if get_field(doc, "result", dict):
            raise MalformedDocument(field="result", reason="must be an empty object")
        return cls(id=message_id(doc))


@response_class("start")
class StartResponse(_EmptyResponse):
    """The answer to ``start``."""


@response_class("bye")
class ByeResponse(_EmptyResponse):
    """The answer to ``bye``; the process exits right after writing it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ObservationResponse:
    """The answer to an event (or, in the host profile, a host command): the observation's JSON is the result."""

    cmd: ClassVar[str] = ""
    schema: ClassVar[str] = ""
    id: int
    observation: Any

    def to_json(self) -> dict[str, Any]:
        """The wire form."""
        return {"id": self.id, "ok": True, "result": self.observation.to_json()}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Any:
        """Read the wire form; raises MalformedDocument on a wrong shape."""
        return cls(id=message_id(doc), observation=cls.read_observation(get_field(doc, "result", dict)))

    @classmethod
    def read_observation(cls, result: Mapping[str, Any]) -> Any:
        """The observation in a ``result``: an event's (reference_impl.events); raises MalformedDocument."""
        return observation_from_json(cls.cmd, result)


@response_class("run")
class RunResponse(ObservationResponse):
    """The answer to ``run``: a RunObservation."""

    observation: RunObservation


@response_class("activate")
class ActivateResponse(ObservationResponse):
    """The answer to ``activate``: a CallObservation."""

    observation: CallObservation


@response_class("extend")
class ExtendResponse(ObservationResponse):
    """The answer to ``extend``: a CallObservation."""

    observation: CallObservation


@response_class("set-strategy")
class SetStrategyResponse(ObservationResponse):
    """The answer to ``set-strategy``: an AdminObservation."""

    observation: AdminObservation


@response_class("enable")
class EnableResponse(ObservationResponse):
    """The answer to ``enable``: an AdminObservation."""

    observation: AdminObservation


@response_class("disable")
class DisableResponse(ObservationResponse):
    """The answer to ``disable``: an AdminObservation."""

    observation: AdminObservation


@response_class("set-scheduler")
class SetSchedulerResponse(ObservationResponse):
    """The answer to ``set-scheduler``: an AdminObservation."""

    observation: AdminObservation


@response_class("restart")
class RestartResponse(ObservationResponse):
    """The answer to ``restart``: an AdminObservation."""

    observation: AdminObservation


EVENT_RESPONSES: Final[Mapping[str, type]] = {
    t.cmd: t for t in (RunResponse, ActivateResponse, ExtendResponse, SetStrategyResponse, EnableResponse,
                       DisableResponse, SetSchedulerResponse, RestartResponse)
}


@dataclass(frozen=True, slots=True, kw_only=True)
class ErrorResponse:
    """The answer to a request that could not be carried out; ``id`` is None when unreadable."""

    schema: ClassVar[str] = "protocol/error-response"
    id: int | None
    message: str
    code: str = ""

    def to_json(self) -> dict[str, Any]:
        """The wire form (``code`` left out when empty)."""
        error = {"message": self.message, **({"code": self.code} if self.code else {})}
        return {"id": self.id, "ok": False, "error": error}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> ErrorResponse:
        """Read the wire form; raises MalformedDocument on a wrong shape."""
        error = get_field(doc, "error", dict)
        request_id = None if doc.get("id") is None else message_id(doc)
        return cls(id=request_id, message=get_field(error, "message", str), code=error.get("code", ""))
