"""PAS stdio protocol v1: one typed message class per wire command, and their schema checks.

Every request is ``{"id": n, "cmd": "<command>", ...}``; every answer is either the
command's response ``{"id": n, "ok": true, "result": {...}}`` or an :class:`ErrorResponse`
``{"id": n, "ok": false, "error": {"message": ..., "code": ...}}``. The schema of each
message is ``spec/schemas/protocol/<cmd>-request`` / ``<cmd>-response`` (see ``schema``
on every class); docs/protocol.md is the prose specification.

The host profile's commands (``host-load`` ... ``host-stop``) carry a host command of
``reference_impl.host`` and are answered with its :class:`~reference_impl.host.HostObservation`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Final

from conformance.problems import Problem
from reference_impl.errors import MalformedDocument, PasError
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
from reference_impl.host import COMMAND_TYPES as HOST_COMMAND_TYPES
from reference_impl.host import (
    EventKind,
    HostCommand,
    HostObservation,
    LifecycleEvent,
    command_from_json,
    command_to_json,
)
from reference_impl.host_config import (
    HostProblem,
    Layer,
    MergedConfig,
    Origin,
    ProblemSeverity,
    Provenance,
    SourceKind,
    freeze,
)
from reference_impl.model import HostConfig, ImplementationInfo, Manifest

PROTOCOL_VERSION: Final = 1


class MessageInvalid(PasError, ValueError):
    """A message does not match its protocol schema; ``problems`` say where and why."""

    def __init__(self, *, schema: str, problems: Sequence[Problem]) -> None:
        self.schema = schema
        self.problems = tuple(problems)
        found = "; ".join(f"{p.pointer or '/'}: {p.message}" for p in self.problems)
        super().__init__(f"message does not match {schema}: {found}")


def _get(doc: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = doc.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise MalformedDocument(field=key, reason="is missing or has the wrong type")
    return value


def _request_id(doc: Mapping[str, Any], cmd: str | None = None) -> int:
    """The id of a message (of a ``cmd`` request, when given)."""
    if cmd is not None and doc.get("cmd") != cmd:
        raise MalformedDocument(field="cmd", reason=f"must be {cmd!r}")
    value = _get(doc, "id", int)
    if value < 1:
        raise MalformedDocument(field="id", reason="must be a positive integer")
    return value


# ------------------------------------------------------------------ requests


@dataclass(frozen=True, slots=True, kw_only=True)
class HelloRequest:
    """``hello``: the first request on every process; the runner's protocol and spec versions."""

    cmd: ClassVar[str] = "hello"
    schema: ClassVar[str] = "protocol/hello-request"
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
        return cls(id=_request_id(doc, cls.cmd), protocol_version=_get(doc, "protocol_version", int),
                   spec_version=_get(doc, "spec_version", str))


@dataclass(frozen=True, slots=True, kw_only=True)
class StartRequest:
    """``start``: install ``plugins`` under ``host`` with empty state."""

    cmd: ClassVar[str] = "start"
    schema: ClassVar[str] = "protocol/start-request"
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
        plugins = tuple(Manifest.from_json(m) for m in _get(doc, "plugins", list))
        return cls(id=_request_id(doc, cls.cmd), plugins=plugins, host=HostConfig.from_json(_get(doc, "host", dict)))


@dataclass(frozen=True, slots=True, kw_only=True)
class ByeRequest:
    """``bye``: answer, then exit with code 0."""

    cmd: ClassVar[str] = "bye"
    schema: ClassVar[str] = "protocol/bye-request"
    id: int

    def to_json(self) -> dict[str, Any]:
        """The wire form."""
        return {"id": self.id, "cmd": self.cmd}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> ByeRequest:
        """Read the wire form; raises MalformedDocument on a wrong shape."""
        return cls(id=_request_id(doc, cls.cmd))


@dataclass(frozen=True, slots=True, kw_only=True)
class _EventRequest:
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
        request_id = _request_id(doc, cls.cmd)
        return cls(id=request_id, event=event_from_json({k: v for k, v in doc.items() if k != "id"}))


@dataclass(frozen=True, slots=True, kw_only=True)
class RunRequest(_EventRequest):
    """``run``: a new agent run starts; answered with a run observation."""
    cmd: ClassVar[str] = "run"
    schema: ClassVar[str] = "protocol/run-request"
    event: StartRun


@dataclass(frozen=True, slots=True, kw_only=True)
class ActivateRequest(_EventRequest):
    """``activate``: the model calls activate_plugin; answered with a call observation."""
    cmd: ClassVar[str] = "activate"
    schema: ClassVar[str] = "protocol/activate-request"
    event: Activate


@dataclass(frozen=True, slots=True, kw_only=True)
class ExtendRequest(_EventRequest):
    """``extend``: the model calls extend_plugin_activation; answered with a call observation."""
    cmd: ClassVar[str] = "extend"
    schema: ClassVar[str] = "protocol/extend-request"
    event: Extend


@dataclass(frozen=True, slots=True, kw_only=True)
class SetStrategyRequest(_EventRequest):
    """``set-strategy``: an admin sets a plugin's strategy."""
    cmd: ClassVar[str] = "set-strategy"
    schema: ClassVar[str] = "protocol/set-strategy-request"
    event: SetStrategy


@dataclass(frozen=True, slots=True, kw_only=True)
class EnableRequest(_EventRequest):
    """``enable``: an admin enables a plugin."""
    cmd: ClassVar[str] = "enable"
    schema: ClassVar[str] = "protocol/enable-request"
    event: Enable


@dataclass(frozen=True, slots=True, kw_only=True)
class DisableRequest(_EventRequest):
    """``disable``: an admin disables a plugin."""
    cmd: ClassVar[str] = "disable"
    schema: ClassVar[str] = "protocol/disable-request"
    event: Disable


@dataclass(frozen=True, slots=True, kw_only=True)
class SetSchedulerRequest(_EventRequest):
    """``set-scheduler``: an admin switches the scheduler on or off."""
    cmd: ClassVar[str] = "set-scheduler"
    schema: ClassVar[str] = "protocol/set-scheduler-request"
    event: SetScheduler


@dataclass(frozen=True, slots=True, kw_only=True)
class RestartRequest(_EventRequest):
    """``restart``: the host restarts; persisted state survives."""
    cmd: ClassVar[str] = "restart"
    schema: ClassVar[str] = "protocol/restart-request"
    event: Restart


EVENT_REQUESTS: Final[Mapping[str, type]] = {
    t.cmd: t for t in (RunRequest, ActivateRequest, ExtendRequest, SetStrategyRequest, EnableRequest,
                       DisableRequest, SetSchedulerRequest, RestartRequest)
}


@dataclass(frozen=True, slots=True, kw_only=True)
class _HostRequest:
    """A host command as a request: the command's JSON (reference_impl.host) plus the request id."""

    cmd: ClassVar[str] = ""
    schema: ClassVar[str] = ""
    id: int
    command: HostCommand

    def to_json(self) -> dict[str, Any]:
        """The wire form: ``{"id": ..., **command_to_json(command)}``."""
        return {"id": self.id, **command_to_json(self.command)}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Any:
        """Read the wire form; raises MalformedDocument on a wrong shape."""
        request_id = _request_id(doc, cls.cmd)
        try:
            return cls(id=request_id, command=command_from_json({k: v for k, v in doc.items() if k != "id"}))
        except (TypeError, ValueError, AttributeError) as error:  # MalformedDocument is a ValueError
            if isinstance(error, MalformedDocument):
                raise
            raise MalformedDocument(field="", reason=f"is not a valid {cls.cmd!r} request: {error}") from None


@dataclass(frozen=True, slots=True, kw_only=True)
class HostLoadRequest(_HostRequest):
    """``host-load``: forget every host state, install plugins, register and validate them."""
    cmd: ClassVar[str] = "host-load"
    schema: ClassVar[str] = "protocol/host-load-request"


@dataclass(frozen=True, slots=True, kw_only=True)
class HostStartRequest(_HostRequest):
    """``host-start``: set up, then start, the valid plugins in dependency order."""
    cmd: ClassVar[str] = "host-start"
    schema: ClassVar[str] = "protocol/host-start-request"


@dataclass(frozen=True, slots=True, kw_only=True)
class HostDispatchRequest(_HostRequest):
    """``host-dispatch``: call a hook's subscribers in load order."""
    cmd: ClassVar[str] = "host-dispatch"
    schema: ClassVar[str] = "protocol/host-dispatch-request"


@dataclass(frozen=True, slots=True, kw_only=True)
class HostOpenConversationRequest(_HostRequest):
    """``host-open-conversation``: a conversation starts and keeps the current plugin instances."""
    cmd: ClassVar[str] = "host-open-conversation"
    schema: ClassVar[str] = "protocol/host-open-conversation-request"


@dataclass(frozen=True, slots=True, kw_only=True)
class HostReloadRequest(_HostRequest):
    """``host-reload``: new conversations get a new instance of one plugin."""
    cmd: ClassVar[str] = "host-reload"
    schema: ClassVar[str] = "protocol/host-reload-request"


@dataclass(frozen=True, slots=True, kw_only=True)
class HostReadConfigRequest(_HostRequest):
    """``host-read-config``: the configuration snapshot one plugin receives."""
    cmd: ClassVar[str] = "host-read-config"
    schema: ClassVar[str] = "protocol/host-read-config-request"


@dataclass(frozen=True, slots=True, kw_only=True)
class HostStopRequest(_HostRequest):
    """``host-stop``: stop, then tear down, in reverse order."""
    cmd: ClassVar[str] = "host-stop"
    schema: ClassVar[str] = "protocol/host-stop-request"


HOST_REQUESTS: Final[Mapping[str, type]] = {
    t.cmd: t for t in (HostLoadRequest, HostStartRequest, HostDispatchRequest, HostOpenConversationRequest,
                       HostReloadRequest, HostReadConfigRequest, HostStopRequest)
}
HOST_REQUEST_TYPES: Final = tuple(HOST_REQUESTS.values())
REQUESTS: Final[Mapping[str, type]] = {
    HelloRequest.cmd: HelloRequest, StartRequest.cmd: StartRequest, **EVENT_REQUESTS, **HOST_REQUESTS,
    ByeRequest.cmd: ByeRequest,
}
COMMANDS: Final = tuple(REQUESTS)
Request = HelloRequest | StartRequest | _EventRequest | _HostRequest | ByeRequest


def is_host_command(value: Any) -> bool:
    """Whether ``value`` is a host command (reference_impl.host), as opposed to an activation event."""
    return isinstance(value, tuple(HOST_COMMAND_TYPES.values()))


def request_for(request_id: int, event: Event | HostCommand) -> _EventRequest | _HostRequest:
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


# ------------------------------------------------------------------ responses


@dataclass(frozen=True, slots=True, kw_only=True)
class HelloResponse:
    """The answer to ``hello``: who the implementation is and which protocol it speaks."""

    cmd: ClassVar[str] = "hello"
    schema: ClassVar[str] = "protocol/hello-response"
    id: int
    info: ImplementationInfo
    protocol_version: int = PROTOCOL_VERSION

    def to_json(self) -> dict[str, Any]:
        """The wire form."""
        return {"id": self.id, "ok": True, "result": {**self.info.to_json(), "protocol_version": self.protocol_version}}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> HelloResponse:
        """Read the wire form; raises MalformedDocument on a wrong shape."""
        result = _get(doc, "result", dict)
        return cls(id=_request_id(doc), info=ImplementationInfo.from_json(result),
                   protocol_version=_get(result, "protocol_version", int))


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
        if _get(doc, "result", dict):
            raise MalformedDocument(field="result", reason="must be an empty object")
        return cls(id=_request_id(doc))


@dataclass(frozen=True, slots=True, kw_only=True)
class StartResponse(_EmptyResponse):
    """The answer to ``start``."""
    cmd: ClassVar[str] = "start"
    schema: ClassVar[str] = "protocol/start-response"


@dataclass(frozen=True, slots=True, kw_only=True)
class ByeResponse(_EmptyResponse):
    """The answer to ``bye``; the process exits right after writing it."""
    cmd: ClassVar[str] = "bye"
    schema: ClassVar[str] = "protocol/bye-response"


@dataclass(frozen=True, slots=True, kw_only=True)
class _ObservationResponse:
    """The answer to an event: the observation's JSON is the result."""

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
        return cls(id=_request_id(doc), observation=observation_from_json(cls.cmd, _get(doc, "result", dict)))


@dataclass(frozen=True, slots=True, kw_only=True)
class RunResponse(_ObservationResponse):
    """The answer to ``run``: a RunObservation."""
    cmd: ClassVar[str] = "run"
    schema: ClassVar[str] = "protocol/run-response"
    observation: RunObservation


@dataclass(frozen=True, slots=True, kw_only=True)
class ActivateResponse(_ObservationResponse):
    """The answer to ``activate``: a CallObservation."""
    cmd: ClassVar[str] = "activate"
    schema: ClassVar[str] = "protocol/activate-response"
    observation: CallObservation


@dataclass(frozen=True, slots=True, kw_only=True)
class ExtendResponse(_ObservationResponse):
    """The answer to ``extend``: a CallObservation."""
    cmd: ClassVar[str] = "extend"
    schema: ClassVar[str] = "protocol/extend-response"
    observation: CallObservation


@dataclass(frozen=True, slots=True, kw_only=True)
class SetStrategyResponse(_ObservationResponse):
    """The answer to ``set-strategy``: an AdminObservation."""
    cmd: ClassVar[str] = "set-strategy"
    schema: ClassVar[str] = "protocol/set-strategy-response"
    observation: AdminObservation


@dataclass(frozen=True, slots=True, kw_only=True)
class EnableResponse(_ObservationResponse):
    """The answer to ``enable``: an AdminObservation."""
    cmd: ClassVar[str] = "enable"
    schema: ClassVar[str] = "protocol/enable-response"
    observation: AdminObservation


@dataclass(frozen=True, slots=True, kw_only=True)
class DisableResponse(_ObservationResponse):
    """The answer to ``disable``: an AdminObservation."""
    cmd: ClassVar[str] = "disable"
    schema: ClassVar[str] = "protocol/disable-response"
    observation: AdminObservation


@dataclass(frozen=True, slots=True, kw_only=True)
class SetSchedulerResponse(_ObservationResponse):
    """The answer to ``set-scheduler``: an AdminObservation."""
    cmd: ClassVar[str] = "set-scheduler"
    schema: ClassVar[str] = "protocol/set-scheduler-response"
    observation: AdminObservation


@dataclass(frozen=True, slots=True, kw_only=True)
class RestartResponse(_ObservationResponse):
    """The answer to ``restart``: an AdminObservation."""
    cmd: ClassVar[str] = "restart"
    schema: ClassVar[str] = "protocol/restart-response"
    observation: AdminObservation


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
        error = _get(doc, "error", dict)
        request_id = None if doc.get("id") is None else _request_id(doc)
        return cls(id=request_id, message=_get(error, "message", str), code=error.get("code", ""))


def _origin(doc: Any, layer: Layer | None = None) -> Origin | None:
    """An origin from its JSON (None when absent); for a provenance without one, the layer's own kind."""
    if isinstance(doc, Mapping):
        return Origin(kind=SourceKind(doc["kind"]), name=doc.get("name", ""), pointer=doc.get("pointer", ""))
    if layer is None:
        return None
    kinds = {Layer.DEFAULTS: SourceKind.MANIFEST, Layer.FILE: SourceKind.HOST_CONFIG,
             Layer.ENVIRONMENT: SourceKind.ENVIRONMENT, Layer.COMMAND_LINE: SourceKind.COMMAND_LINE}
    return Origin(kind=kinds[layer])


def _lifecycle_event(doc: Mapping[str, Any]) -> LifecycleEvent:
    instances = doc.get("instances")
    return LifecycleEvent(kind=EventKind(doc["event"]), module_name=doc.get("module_name", ""),
                          hook=doc.get("hook", ""), conversation=doc.get("conversation", ""),
                          generation=doc.get("generation"), cause=doc.get("cause", ""), reason=doc.get("reason", ""),
                          instances=None if instances is None else dict(instances))


def _host_problem(doc: Mapping[str, Any]) -> HostProblem:
    return HostProblem(code=doc["code"], message=doc["message"], severity=ProblemSeverity(doc["severity"]),
                       plugins=tuple(doc["plugins"]), origin=_origin(doc.get("origin")))


def _provenance(doc: Mapping[str, Any]) -> Provenance:
    layer = Layer(doc["layer"])
    return Provenance(layer=layer, origin=_origin(doc.get("origin"), layer))


def host_observation_from_json(doc: Mapping[str, Any]) -> HostObservation:
    """The host observation in ``doc`` (the result of a host command); raises MalformedDocument on a wrong shape."""
    try:
        config = None
        if "config" in doc:
            provenance = {pointer: _provenance(p) for pointer, p in doc.get("provenance", {}).items()}
            config = MergedConfig(value=freeze(dict(doc["config"])), provenance=provenance)
        orders = {key: tuple(doc[key]) for key in ("load_order", "setup_order") if key in doc}
        return HostObservation(events=tuple(_lifecycle_event(e) for e in doc["events"]),
                               problems=tuple(_host_problem(p) for p in doc["problems"]), config=config, **orders)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise MalformedDocument(field="result", reason=f"is not a host observation: {error!r}") from None


@dataclass(frozen=True, slots=True, kw_only=True)
class _HostResponse:
    """The answer to a host command: the host observation's JSON is the result."""

    cmd: ClassVar[str] = ""
    schema: ClassVar[str] = ""
    id: int
    observation: HostObservation

    def to_json(self) -> dict[str, Any]:
        """The wire form."""
        return {"id": self.id, "ok": True, "result": self.observation.to_json()}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Any:
        """Read the wire form; raises MalformedDocument on a wrong shape."""
        return cls(id=_request_id(doc), observation=host_observation_from_json(_get(doc, "result", dict)))


@dataclass(frozen=True, slots=True, kw_only=True)
class HostLoadResponse(_HostResponse):
    """The answer to ``host-load``: registered/invalid/skipped events, problems, load and setup orders."""
    cmd: ClassVar[str] = "host-load"
    schema: ClassVar[str] = "protocol/host-load-response"


@dataclass(frozen=True, slots=True, kw_only=True)
class HostStartResponse(_HostResponse):
    """The answer to ``host-start``: set_up/setup_failed/skipped then started events."""
    cmd: ClassVar[str] = "host-start"
    schema: ClassVar[str] = "protocol/host-start-response"


@dataclass(frozen=True, slots=True, kw_only=True)
class HostDispatchResponse(_HostResponse):
    """The answer to ``host-dispatch``: one hook_called/hook_failed event per subscriber."""
    cmd: ClassVar[str] = "host-dispatch"
    schema: ClassVar[str] = "protocol/host-dispatch-response"


@dataclass(frozen=True, slots=True, kw_only=True)
class HostOpenConversationResponse(_HostResponse):
    """The answer to ``host-open-conversation``: a conversation_opened event."""
    cmd: ClassVar[str] = "host-open-conversation"
    schema: ClassVar[str] = "protocol/host-open-conversation-response"


@dataclass(frozen=True, slots=True, kw_only=True)
class HostReloadResponse(_HostResponse):
    """The answer to ``host-reload``: a reloaded or reload_refused event."""
    cmd: ClassVar[str] = "host-reload"
    schema: ClassVar[str] = "protocol/host-reload-response"


@dataclass(frozen=True, slots=True, kw_only=True)
class HostReadConfigResponse(_HostResponse):
    """The answer to ``host-read-config``: the plugin's config snapshot (and provenance), or a problem."""
    cmd: ClassVar[str] = "host-read-config"
    schema: ClassVar[str] = "protocol/host-read-config-response"


@dataclass(frozen=True, slots=True, kw_only=True)
class HostStopResponse(_HostResponse):
    """The answer to ``host-stop``: stopped then torn_down events."""
    cmd: ClassVar[str] = "host-stop"
    schema: ClassVar[str] = "protocol/host-stop-response"


HOST_RESPONSES: Final[Mapping[str, type]] = {
    t.cmd: t for t in (HostLoadResponse, HostStartResponse, HostDispatchResponse, HostOpenConversationResponse,
                       HostReloadResponse, HostReadConfigResponse, HostStopResponse)
}
RESPONSES: Final[Mapping[str, type]] = {
    **{t.cmd: t for t in (HelloResponse, StartResponse, RunResponse, ActivateResponse, ExtendResponse,
                          SetStrategyResponse, EnableResponse, DisableResponse, SetSchedulerResponse,
                          RestartResponse)},
    **HOST_RESPONSES, ByeResponse.cmd: ByeResponse,
}


Response = HelloResponse | _EmptyResponse | _ObservationResponse | _HostResponse | ErrorResponse


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


# ------------------------------------------------------------------ checks and framing


def check_message(schema: str, doc: Any) -> list[Problem]:
    """Every way ``doc`` breaks the protocol schema ``schema`` (e.g. ``protocol/run-request``)."""
    from conformance._yaml import YamlDocument
    from conformance.schemas import check_against

    problems = check_against(schema, YamlDocument(value=doc, path="<message>"))
    return [replace(p, code="protocol-schema", source=None) for p in problems]


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def decode(line: bytes) -> Any:
    """The JSON value on one protocol line; raises ValueError for bad UTF-8, bad JSON, NaN or infinity."""
    return json.loads(line.decode("utf-8"), parse_constant=_reject_constant)


def encode(doc: Mapping[str, Any]) -> bytes:
    """One protocol line: compact UTF-8 JSON and a newline; raises ValueError for NaN or infinity."""
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8") + b"\n"
