"""PAS stdio protocol v1, disclosure profile: the request and the response of every ``disclosure-*`` command.

A :class:`DisclosureRequest` carries a disclosure event of ``reference_impl.disclosure_commands``
(whose ``cmd`` is the wire command) and is answered with a :class:`DisclosureResponse` carrying
its observation (``reference_impl.disclosure_answers``): the tool list of the next model call,
a model step's answers with it, or an empty object. The schemas are
``spec/schemas/protocol/disclosure-<command>-request`` / ``-response``. Like ``host-load``,
``disclosure-start`` needs no ``start`` before it: it begins a disclosure scenario.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from conformance.adapters.protocol.messages import ObservationResponse
from conformance.adapters.protocol.wire import message_id, schema_name
from reference_impl.disclosure_answers import DisclosureObservation, disclosure_observation_from_json
from reference_impl.disclosure_commands import DISCLOSURE_EVENT_TYPES, DisclosureEvent, disclosure_event_from_json
from reference_impl.errors import MalformedDocument


@dataclass(frozen=True, slots=True, kw_only=True)
class DisclosureRequest:
    """Any disclosure event as a request: the event's JSON plus the request id (``schema``: ``protocol/<cmd>-request``)."""

    id: int
    event: DisclosureEvent

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

    def answer(self, observation: DisclosureObservation) -> DisclosureResponse:
        """The response that carries ``observation`` back for this request."""
        return DisclosureResponse(id=self.id, cmd=self.event.cmd, observation=observation)

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> DisclosureRequest:
        """Read the wire form of any disclosure request; raises MalformedDocument on a wrong shape or another command."""
        cmd = doc.get("cmd")
        if not isinstance(cmd, str) or cmd not in DISCLOSURE_EVENT_TYPES:
            raise MalformedDocument(field="cmd", reason=f"must be one of {', '.join(DISCLOSURE_EVENT_TYPES)}, not {cmd!r}")
        request_id = message_id(doc, cmd)
        return cls(id=request_id, event=disclosure_event_from_json({k: v for k, v in doc.items() if k != "id"}))


@dataclass(frozen=True, slots=True, kw_only=True)
class DisclosureResponse(ObservationResponse):
    """The answer to any disclosure command: the observation's JSON is the result (``cmd`` says which command)."""

    observation: DisclosureObservation

    @classmethod
    def read_observation(cls, cmd: str, result: Mapping[str, Any]) -> DisclosureObservation:
        """The disclosure observation in a ``result``; raises MalformedDocument on a wrong shape."""
        return disclosure_observation_from_json(cmd, result)
