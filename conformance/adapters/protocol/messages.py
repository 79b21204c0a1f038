"""PAS stdio protocol v1: the session's messages and the activation profile's.

``hello``, ``start`` and ``bye`` have a typed class each (they carry their own fields);
every event command shares :class:`EventRequest` and :class:`ObservationResponse`, whose
command is the event's own ``cmd``. Every request is ``{"id": n, "cmd": "<command>", ...}``; every answer is either the
command's response ``{"id": n, "ok": true, "result": {...}}`` or an :class:`ErrorResponse`
``{"id": n, "ok": false, "error": {"message": ..., "code": ...}}``. The schema of each
message is ``spec/schemas/protocol/<cmd>-request`` / ``<cmd>-response`` (see ``schema``
on every message); docs/protocol.md is the prose specification. An event request carries an
event of ``reference_impl.events`` and is answered with its observation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from conformance.adapters.protocol.wire import (
    PROTOCOL_VERSION,
    Message,
    get_field,
    message_id,
    request_class,
    response_class,
    schema_name,
)
from reference_impl.errors import MalformedDocument
from reference_impl.events import (
    EVENT_TYPES,
    Activate,
    AdminObservation,
    CallObservation,
    Event,
    Extend,
    Observation,
    PluginView,
    RunObservation,
    StartRun,
    event_from_json,
)
from reference_impl.model import AdminOutcome, HostConfig, ImplementationInfo, Manifest, OutcomeKind, PluginState

# ------------------------------------------------------------------ requests


@request_class("hello")
class HelloRequest(Message):
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
class StartRequest(Message):
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
class ByeRequest(Message):
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
    """Any event as a request: the event's JSON (reference_impl.events) plus the request id.

    One class for every event command: ``cmd`` is the event's own wire command and
    ``schema`` is derived from it (``protocol/<cmd>-request``).
    """

    id: int
    event: Event

    @property
    def cmd(self) -> str:
        """The wire command: the event's."""
        return self.event.cmd

    @property
    def schema(self) -> str:
        """The request's schema name, ``protocol/<cmd>-request``."""
        return schema_name(self.event.cmd, "request")

    def to_json(self) -> dict[str, Any]:
        """The wire form: ``{"id": ..., **event.to_json()}``."""
        return {"id": self.id, **self.event.to_json()}

    def answer(self, observation: Observation) -> ObservationResponse:
        """The response that carries ``observation`` back for this request."""
        return ObservationResponse(id=self.id, cmd=self.event.cmd, observation=observation)

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> EventRequest:
        """Read the wire form of any event request; raises MalformedDocument on a wrong shape or another command."""
        cmd = doc.get("cmd")
        if not isinstance(cmd, str) or cmd not in EVENT_TYPES:
            raise MalformedDocument(field="cmd", reason=f"must be one of {', '.join(EVENT_TYPES)}, not {cmd!r}")
        request_id = message_id(doc, cmd)
        return cls(id=request_id, event=event_from_json({k: v for k, v in doc.items() if k != "id"}))


# ------------------------------------------------------------------ responses


@response_class("hello")
class HelloResponse(Message):
    """The answer to ``hello``: who the implementation is, which protocol it speaks, and how many
    requests it takes ahead (``pipeline_depth``: 1, strictly in turn, unless it says more)."""

    id: int
    info: ImplementationInfo
    protocol_version: int = PROTOCOL_VERSION
    pipeline_depth: int = 1

    def to_json(self) -> dict[str, Any]:
        """The wire form (``pipeline_depth`` left out when it is 1)."""
        result = {**self.info.to_json(), "protocol_version": self.protocol_version}
        if self.pipeline_depth != 1:
            result["pipeline_depth"] = self.pipeline_depth
        return {"id": self.id, "ok": True, "result": result}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> HelloResponse:
        """Read the wire form; raises MalformedDocument on a wrong shape."""
        result = get_field(doc, "result", dict)
        depth = get_field(result, "pipeline_depth", int) if "pipeline_depth" in result else 1
        if depth < 1:
            raise MalformedDocument(field="pipeline_depth", reason="must be a positive integer")
        return cls(id=message_id(doc), info=ImplementationInfo.from_json(result),
                   protocol_version=get_field(result, "protocol_version", int), pipeline_depth=depth)


@dataclass(frozen=True, slots=True, kw_only=True)
class _EmptyResponse(Message):
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
    """The answer to any event: the observation's JSON is the result.

    One class for every event command; ``cmd`` says which request it answers (several
    commands share an observation type) and ``schema`` is ``protocol/<cmd>-response``.
    """

    id: int
    cmd: str
    observation: Any

    @property
    def schema(self) -> str:
        """The response's schema name, ``protocol/<cmd>-response``."""
        return schema_name(self.cmd, "response")

    def to_json(self) -> dict[str, Any]:
        """The wire form."""
        return {"id": self.id, "ok": True, "result": self.observation.to_json()}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any], *, cmd: str) -> Any:
        """Read the wire form of the answer to ``cmd``; raises MalformedDocument on a wrong shape."""
        return cls(id=message_id(doc), cmd=cmd, observation=cls.read_observation(cmd, get_field(doc, "result", dict)))

    @classmethod
    def read_observation(cls, cmd: str, result: Mapping[str, Any]) -> Any:
        """The observation in a ``result``: an event's (reference_impl.events); raises MalformedDocument."""
        return observation_from_json(cmd, result)


def _plugin_view(doc: Any) -> PluginView:
    if not isinstance(doc, Mapping):
        raise MalformedDocument(field="", reason="a plugin view must be an object")
    try:
        return PluginView(**{**doc, "state": PluginState(doc["state"])})
    except (KeyError, TypeError, ValueError) as error:
        raise MalformedDocument(field="", reason=f"is not a plugin view: {error}") from None


def observation_from_json(cmd: str, doc: Mapping[str, Any]) -> Observation:
    """The observation answering the event ``cmd``, from its JSON form (the runner's side of the wire).

    Raises MalformedDocument when ``doc`` does not have that observation's shape.
    """
    try:
        if cmd == StartRun.cmd:
            plugins = doc["plugins"]
            if not isinstance(plugins, list):
                raise TypeError("'plugins' must be a list")
            return RunObservation(plugins=tuple(_plugin_view(v) for v in plugins), text=doc.get("text"))
        if cmd in (Activate.cmd, Extend.cmd):
            block = doc.get("block")
            return CallObservation(
                outcome=OutcomeKind(doc["outcome"]), module_name=doc["module_name"], rounds=doc.get("rounds"),
                ends_step=doc.get("ends_step", False), block=None if block is None else _plugin_view(block),
                text=doc.get("text"),
            )
        return AdminObservation(outcome=AdminOutcome(doc["outcome"]), reason=doc.get("reason", ""))
    except (KeyError, TypeError, ValueError) as error:
        raise MalformedDocument(field="result", reason=f"is not a {cmd!r} observation: {error}") from None


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
