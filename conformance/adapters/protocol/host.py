"""PAS stdio protocol v1, host profile: one typed class per ``host-*`` command.

A host request carries a host command of ``reference_impl.host_commands`` and is answered
with its :class:`~reference_impl.host.HostObservation`; the schemas are
``spec/schemas/protocol/host-<command>-request`` / ``-response``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from conformance.adapters.protocol.messages import ObservationResponse
from conformance.adapters.protocol.wire import message_id, request_class, response_class
from reference_impl.errors import MalformedDocument
from reference_impl.host import EventKind, HostObservation, LifecycleEvent
from reference_impl.host_commands import HostCommand, command_from_json, command_to_json
from reference_impl.host_config import Layer, MergedConfig, Provenance, freeze
from reference_impl.problems import Origin, Problem, SourceKind

# ------------------------------------------------------------------ requests


@dataclass(frozen=True, slots=True, kw_only=True)
class HostRequest:
    """A host command as a request: the command's JSON (reference_impl.host_commands) plus the request id."""

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
        request_id = message_id(doc, cls.cmd)
        try:
            return cls(id=request_id, command=command_from_json({k: v for k, v in doc.items() if k != "id"}))
        except (TypeError, ValueError, AttributeError) as error:  # MalformedDocument is a ValueError
            if isinstance(error, MalformedDocument):
                raise
            raise MalformedDocument(field="", reason=f"is not a valid {cls.cmd!r} request: {error}") from None


@request_class("host-load")
class HostLoadRequest(HostRequest):
    """``host-load``: forget every host state, install plugins, register and validate them."""


@request_class("host-start")
class HostStartRequest(HostRequest):
    """``host-start``: set up, then start, the valid plugins in dependency order."""


@request_class("host-dispatch")
class HostDispatchRequest(HostRequest):
    """``host-dispatch``: call a hook's subscribers in load order."""


@request_class("host-open-conversation")
class HostOpenConversationRequest(HostRequest):
    """``host-open-conversation``: a conversation starts and keeps the current plugin instances."""


@request_class("host-reload")
class HostReloadRequest(HostRequest):
    """``host-reload``: new conversations get a new instance of one plugin."""


@request_class("host-read-config")
class HostReadConfigRequest(HostRequest):
    """``host-read-config``: the configuration snapshot one plugin receives."""


@request_class("host-stop")
class HostStopRequest(HostRequest):
    """``host-stop``: stop, then tear down, in reverse order."""


HOST_REQUESTS: Final[Mapping[str, type]] = {
    t.cmd: t for t in (HostLoadRequest, HostStartRequest, HostDispatchRequest, HostOpenConversationRequest,
                       HostReloadRequest, HostReadConfigRequest, HostStopRequest)
}
HOST_REQUEST_TYPES: Final = tuple(HOST_REQUESTS.values())


# ------------------------------------------------------------------ responses


def _origin(doc: Any, layer: Layer | None = None) -> Origin | None:
    """An origin from its JSON (None when absent); for a provenance without one, the layer's own kind."""
    if isinstance(doc, Mapping):
        return Origin.from_json(doc)
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
                               problems=tuple(Problem.from_host_json(p) for p in doc["problems"]), config=config, **orders)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise MalformedDocument(field="result", reason=f"is not a host observation: {error!r}") from None


@dataclass(frozen=True, slots=True, kw_only=True)
class HostResponse(ObservationResponse):
    """The answer to a host command: the host observation's JSON is the result."""

    observation: HostObservation

    @classmethod
    def read_observation(cls, result: Mapping[str, Any]) -> HostObservation:
        """The host observation in a ``result``; raises MalformedDocument on a wrong shape."""
        return host_observation_from_json(result)


@response_class("host-load")
class HostLoadResponse(HostResponse):
    """The answer to ``host-load``: registered/invalid/skipped events, problems, load and setup orders."""


@response_class("host-start")
class HostStartResponse(HostResponse):
    """The answer to ``host-start``: set_up/setup_failed/skipped then started events."""


@response_class("host-dispatch")
class HostDispatchResponse(HostResponse):
    """The answer to ``host-dispatch``: one hook_called/hook_failed event per subscriber."""


@response_class("host-open-conversation")
class HostOpenConversationResponse(HostResponse):
    """The answer to ``host-open-conversation``: a conversation_opened event."""


@response_class("host-reload")
class HostReloadResponse(HostResponse):
    """The answer to ``host-reload``: a reloaded or reload_refused event."""


@response_class("host-read-config")
class HostReadConfigResponse(HostResponse):
    """The answer to ``host-read-config``: the plugin's config snapshot (and provenance), or a problem."""


@response_class("host-stop")
class HostStopResponse(HostResponse):
    """The answer to ``host-stop``: stopped then torn_down events."""


HOST_RESPONSES: Final[Mapping[str, type]] = {
    t.cmd: t for t in (HostLoadResponse, HostStartResponse, HostDispatchResponse, HostOpenConversationResponse,
                       HostReloadResponse, HostReadConfigResponse, HostStopResponse)
}
