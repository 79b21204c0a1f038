"""PAS stdio protocol v1, host profile: the request and the response of every ``host-*`` command.

A :class:`HostRequest` carries a host command of ``reference_impl.host_commands`` (whose
``cmd`` is the wire command) and is answered with a :class:`HostResponse` carrying its
:class:`~reference_impl.host.HostObservation`; the schemas are
``spec/schemas/protocol/host-<command>-request`` / ``-response``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from conformance.adapters.protocol.messages import ObservationResponse
from conformance.adapters.protocol.wire import message_id, schema_name
from reference_impl.errors import MalformedDocument
from reference_impl.frozen import freeze
from reference_impl.host_commands import COMMAND_TYPES, HostCommand, command_from_json, command_to_json
from reference_impl.host_observations import EventKind, HostObservation, Layer, LifecycleEvent, MergedConfig, Provenance
from reference_impl.problems import Origin, Problem, Severity, SourceKind

# ------------------------------------------------------------------ requests


@dataclass(frozen=True, slots=True, kw_only=True)
class HostRequest:
    """Any host command as a request: the command's JSON (reference_impl.host_commands) plus the request id.

    One class for every ``host-*`` command: ``cmd`` is the command's own and ``schema``
    is derived from it (``protocol/<cmd>-request``).
    """

    id: int
    command: HostCommand

    @property
    def cmd(self) -> str:
        """The wire command: the host command's."""
        return self.command.cmd

    @property
    def schema(self) -> str:
        """The request's schema name, ``protocol/<cmd>-request``."""
        return schema_name(self.command.cmd, "request")

    def to_json(self) -> dict[str, Any]:
        """The wire form: ``{"id": ..., **command_to_json(command)}``."""
        return {"id": self.id, **command_to_json(self.command)}

    def answer(self, observation: HostObservation) -> HostResponse:
        """The response that carries ``observation`` back for this request."""
        return HostResponse(id=self.id, cmd=self.command.cmd, observation=observation)

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> HostRequest:
        """Read the wire form of any host request; raises MalformedDocument on a wrong shape or another command."""
        cmd = doc.get("cmd")
        if not isinstance(cmd, str) or cmd not in COMMAND_TYPES:
            raise MalformedDocument(field="cmd", reason=f"must be one of {', '.join(COMMAND_TYPES)}, not {cmd!r}")
        request_id = message_id(doc, cmd)
        try:
            return cls(id=request_id, command=command_from_json({k: v for k, v in doc.items() if k != "id"}))
        except (TypeError, ValueError, AttributeError) as error:  # MalformedDocument is a ValueError
            if isinstance(error, MalformedDocument):
                raise
            raise MalformedDocument(field="", reason=f"is not a valid {cmd!r} request: {error}") from None


# ------------------------------------------------------------------ responses


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


def _problem(doc: Mapping[str, Any]) -> Problem:
    """A problem from the host protocol's form (``host_problem``, the inverse of Problem.to_host_json)."""
    return Problem(code=doc["code"], message=doc["message"], severity=Severity(doc["severity"]),
                   plugins=tuple(doc["plugins"]), origin=_origin(doc.get("origin")))


def _provenance(doc: Mapping[str, Any]) -> Provenance:
    layer = Layer(doc["layer"])
    origin = _origin(doc.get("origin"), layer)
    assert origin is not None  # given a layer, _origin falls back to that layer's own kind
    return Provenance(layer=layer, origin=origin)


def host_observation_from_json(doc: Mapping[str, Any]) -> HostObservation:
    """The host observation in ``doc`` (the result of a host command); raises MalformedDocument on a wrong shape."""
    try:
        config = None
        if "config" in doc:
            provenance = {pointer: _provenance(p) for pointer, p in doc.get("provenance", {}).items()}
            config = MergedConfig(value=freeze(dict(doc["config"])), provenance=provenance)
        orders = {key: tuple(doc[key]) for key in ("load_order", "setup_order") if key in doc}
        return HostObservation(events=tuple(_lifecycle_event(e) for e in doc["events"]),
                               problems=tuple(_problem(p) for p in doc["problems"]), config=config, **orders)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise MalformedDocument(field="result", reason=f"is not a host observation: {error!r}") from None


@dataclass(frozen=True, slots=True, kw_only=True)
class HostResponse(ObservationResponse):
    """The answer to any host command: the host observation's JSON is the result (``cmd`` says which command)."""

    observation: HostObservation

    @classmethod
    def read_observation(cls, cmd: str, result: Mapping[str, Any]) -> HostObservation:
        """The host observation in a ``result``; raises MalformedDocument on a wrong shape."""
        return host_observation_from_json(result)
