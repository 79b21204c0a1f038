"""What a host reports (profile ``host``): the lifecycle event log, and configuration snapshots.

The values a host under test returns and the suite reads: :class:`HostObservation` (the
answer to one host command), its :class:`LifecycleEvent` entries, and :class:`MergedConfig`
(one plugin's merged configuration with each leaf's :class:`Provenance`). They live apart from
the host's rules (:mod:`reference_impl.host`, :mod:`reference_impl.host_config`) so that an
implementation can speak them without importing the reference's rules.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from reference_impl.frozen import EMPTY, JSON, FrozenMap, thaw
from reference_impl.problems import Origin, Problem


class Layer(enum.StrEnum):
    """A configuration layer, lowest precedence first."""

    DEFAULTS = "defaults"
    FILE = "file"
    ENVIRONMENT = "environment"
    COMMAND_LINE = "command_line"


@dataclass(frozen=True, slots=True, kw_only=True)
class Provenance:
    """Which layer set a configuration value, and where exactly."""

    layer: Layer
    origin: Origin

    def to_json(self) -> dict[str, JSON]:
        """Return the wire form."""
        return {"layer": self.layer.value, "origin": self.origin.to_json()}


@dataclass(frozen=True, slots=True, kw_only=True)
class MergedConfig:
    """One plugin's merged configuration (a read-only snapshot) and each leaf's provenance."""

    value: Mapping[str, JSON] = EMPTY
    provenance: Mapping[str, Provenance] = EMPTY

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", FrozenMap(self.value))
        object.__setattr__(self, "provenance", FrozenMap(self.provenance))

    def to_json(self) -> dict[str, JSON]:
        """Return ``{"config": ..., "provenance": {pointer: ...}}``."""
        return {"config": thaw(self.value), "provenance": {p: v.to_json() for p, v in self.provenance.items()}}


class EventKind(enum.StrEnum):
    """What happened to a plugin (or a conversation) in the lifecycle event log."""

    REGISTERED = "registered"
    INVALID = "invalid"
    SKIPPED = "skipped"
    SET_UP = "set_up"
    SETUP_FAILED = "setup_failed"
    STARTED = "started"
    STOPPED = "stopped"
    TORN_DOWN = "torn_down"
    HOOK_CALLED = "hook_called"
    HOOK_FAILED = "hook_failed"
    CONVERSATION_OPENED = "conversation_opened"
    RELOADED = "reloaded"
    RELOAD_REFUSED = "reload_refused"


@dataclass(frozen=True, slots=True, kw_only=True)
class LifecycleEvent:
    """One entry of the lifecycle event log; fields that do not apply are left empty.

    ``cause`` names the plugin whose invalidity or failed setup made this one ``skipped``;
    ``reason`` is a short snake_case word or the problem codes (``invalid``);
    ``instances`` maps module_name -> instance generation (``conversation_opened``).
    """

    kind: EventKind
    module_name: str = ""
    hook: str = ""
    conversation: str = ""
    generation: int | None = None
    cause: str = ""
    reason: str = ""
    instances: Mapping[str, int] | None = None

    def to_json(self) -> dict[str, JSON]:
        """Return the wire form, without the fields that do not apply."""
        doc: dict[str, JSON] = {"event": self.kind.value}
        for key in ("module_name", "hook", "conversation", "cause", "reason"):
            if getattr(self, key):
                doc[key] = getattr(self, key)
        if self.generation is not None:
            doc["generation"] = self.generation
        if self.instances is not None:
            doc["instances"] = dict(self.instances)
        return doc


@dataclass(frozen=True, slots=True, kw_only=True)
class HostObservation:
    """What one command produced: events in order, problems, and (per command) orders or a config."""

    events: tuple[LifecycleEvent, ...] = ()
    problems: tuple[Problem, ...] = ()
    load_order: tuple[str, ...] | None = None
    setup_order: tuple[str, ...] | None = None
    config: MergedConfig | None = None

    def to_json(self) -> dict[str, JSON]:
        """Return the wire form (orders and config only when the command produces them)."""
        doc: dict[str, JSON] = {"events": [e.to_json() for e in self.events],
                                "problems": [p.to_host_json() for p in self.problems]}
        if self.load_order is not None:
            doc["load_order"] = list(self.load_order)
        if self.setup_order is not None:
            doc["setup_order"] = list(self.setup_order)
        if self.config is not None:
            doc.update(self.config.to_json())
        return doc
