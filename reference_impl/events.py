"""What goes into the scheduler (events) and what comes out (observations).

The JSON forms are the payloads of the stdio protocol and of scenario expectations: an
event is ``{"cmd": ..., ...}`` where ``cmd`` is the stdio wire command; an observation is the
structured, normative view of one step. An implementation reads events and writes observations,
so only those two directions live here; the runner's side (reading an observation back) is in
``conformance.adapters.protocol.messages``.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from reference_impl.errors import MalformedDocument
from reference_impl.frozen import freeze, thaw
from reference_impl.model import AdminOutcome, OutcomeKind, PluginState


class _Omitted(enum.Enum):
    """The ``rounds`` argument was left out of the call (not the same as null).

    An enum member, so that it stays one object through copy and pickle (``is OMITTED`` holds).
    """

    OMITTED = "OMITTED"

    def __repr__(self) -> str:
        return "OMITTED"


OMITTED: Final = _Omitted.OMITTED


def _conversation_json(conversation: str, adapter: str | None) -> dict[str, Any]:
    doc: dict[str, Any] = {"conversation": conversation}
    if adapter is not None:
        doc["adapter"] = adapter
    return doc


@dataclass(frozen=True, slots=True, kw_only=True)
class StartRun:
    """A new agent run starts in ``conversation`` (ACT-COUNT-1)."""

    cmd: ClassVar[str] = "run"
    conversation: str
    adapter: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"cmd": self.cmd, **_conversation_json(self.conversation, self.adapter)}


@dataclass(frozen=True, slots=True, kw_only=True)
class Activate:
    """The model calls ``activate_plugin(module_name, rounds)``; rounds may be OMITTED."""

    cmd: ClassVar[str] = "activate"
    method: ClassVar[str] = "activate_plugin"
    conversation: str
    module_name: str
    rounds: Any = OMITTED  # any JSON value, frozen
    adapter: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "rounds", freeze(self.rounds))

    def to_json(self) -> dict[str, Any]:
        return _call_json(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class Extend:
    """The model calls ``extend_plugin_activation(module_name, rounds)``."""

    cmd: ClassVar[str] = "extend"
    method: ClassVar[str] = "extend_plugin_activation"
    conversation: str
    module_name: str
    rounds: Any = OMITTED  # any JSON value, frozen
    adapter: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "rounds", freeze(self.rounds))

    def to_json(self) -> dict[str, Any]:
        return _call_json(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class SetStrategy:
    """An admin sets a plugin's strategy; the raw value is kept so bad ones can be rejected."""

    cmd: ClassVar[str] = "set-strategy"
    module_name: str
    strategy: Any  # any JSON value, frozen

    def __post_init__(self) -> None:
        object.__setattr__(self, "strategy", freeze(self.strategy))

    def to_json(self) -> dict[str, Any]:
        return {"cmd": self.cmd, "module_name": self.module_name, "strategy": thaw(self.strategy)}


@dataclass(frozen=True, slots=True, kw_only=True)
class Enable:
    """An admin enables a plugin (loading it if it was not in the enabled list)."""

    cmd: ClassVar[str] = "enable"
    module_name: str

    def to_json(self) -> dict[str, Any]:
        return _toggle_json(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class Disable:
    """An admin disables a plugin."""

    cmd: ClassVar[str] = "disable"
    module_name: str

    def to_json(self) -> dict[str, Any]:
        return _toggle_json(self)


def _call_json(call: Activate | Extend) -> dict[str, Any]:
    # One wire form for both calls; a shared function rather than `to_json = Activate.to_json`,
    # whose self type would be Activate and so wrong for an Extend.
    doc = {"cmd": call.cmd, **_conversation_json(call.conversation, call.adapter), "module_name": call.module_name}
    if call.rounds is not OMITTED:
        doc["rounds"] = thaw(call.rounds)
    return doc


def _toggle_json(toggle: Enable | Disable) -> dict[str, Any]:
    return {"cmd": toggle.cmd, "module_name": toggle.module_name}


@dataclass(frozen=True, slots=True, kw_only=True)
class SetScheduler:
    """An admin switches the built-in ``plugin_activation`` scheduler on or off."""

    cmd: ClassVar[str] = "set-scheduler"
    enabled: bool

    def to_json(self) -> dict[str, Any]:
        return {"cmd": self.cmd, "enabled": self.enabled}


@dataclass(frozen=True, slots=True, kw_only=True)
class Restart:
    """The host restarts: in-memory state is gone, persisted state is restored."""

    cmd: ClassVar[str] = "restart"

    def to_json(self) -> dict[str, Any]:
        return {"cmd": self.cmd}


Event = StartRun | Activate | Extend | SetStrategy | Enable | Disable | SetScheduler | Restart
Call = Activate | Extend
#: The one table of events: each class carries its wire command (``cmd``). How a scenario file
#: writes each one is conformance.documents.step_table (its key there: ``cmd`` with ``_`` for ``-``).
EVENT_TYPES: Final[Mapping[str, type[Event]]] = {
    t.cmd: t for t in (StartRun, Activate, Extend, SetStrategy, Enable, Disable, SetScheduler, Restart)
}


# Argument types of the events; `rounds` and `strategy` take any JSON value on purpose
# (bad values are outcomes to observe, not malformed events).
_FIELD_TYPES: Final[Mapping[str, tuple[type, ...]]] = {
    "conversation": (str,),
    "module_name": (str,),
    "adapter": (str, type(None)),
    "enabled": (bool,),
}


def event_from_json(doc: Mapping[str, Any]) -> Event:
    """Build an event from ``{"cmd": ..., ...}``; raises MalformedDocument on a wrong shape."""
    if not isinstance(doc, Mapping):
        raise MalformedDocument(field="", reason="an event must be a mapping")
    cmd = doc.get("cmd")
    event_type = EVENT_TYPES.get(cmd) if isinstance(cmd, str) else None
    if event_type is None:
        raise MalformedDocument(field="cmd", reason=f"must be one of {', '.join(EVENT_TYPES)}, not {cmd!r}")
    fields = {k: v for k, v in doc.items() if k != "cmd"}
    for name, value in fields.items():
        expected = _FIELD_TYPES.get(name)
        if expected and (not isinstance(value, expected) or (isinstance(value, bool) and bool not in expected)):
            raise MalformedDocument(field=name, reason=f"must be {' or '.join(t.__name__ for t in expected)}")
    try:
        return event_type(**fields)
    except TypeError as error:
        raise MalformedDocument(field="", reason=f"is not a valid {cmd!r} event: {error}") from None


@dataclass(frozen=True, slots=True, kw_only=True)
class PluginView:
    """What the model is shown of one plugin in one run (or in an activation reply)."""

    module_name: str
    state: PluginState
    rounds_left: int | None
    hint: bool
    brief_shown: bool
    methods_shown: bool
    injection_called: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "module_name": self.module_name,
            "state": self.state.value,
            "rounds_left": self.rounds_left,
            "hint": self.hint,
            "brief_shown": self.brief_shown,
            "methods_shown": self.methods_shown,
            "injection_called": self.injection_called,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class RunObservation:
    """The plugins shown at the start of a run, in prompt order; ``text`` for the text profile."""

    plugins: tuple[PluginView, ...]
    text: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "plugins", tuple(self.plugins))

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"plugins": [view.to_json() for view in self.plugins]}
        if self.text is not None:
            doc["text"] = self.text
        return doc


@dataclass(frozen=True, slots=True, kw_only=True)
class CallObservation:
    """The reply to ``activate_plugin`` / ``extend_plugin_activation``.

    ``rounds`` is the stored count the reply reports: the new count for activated and
    extended, the current one for already_active, None otherwise.
    """

    outcome: OutcomeKind
    module_name: str
    ends_step: bool
    rounds: int | None = None
    block: PluginView | None = None
    text: str | None = None

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "outcome": self.outcome.value,
            "module_name": self.module_name,
            "rounds": self.rounds,
            "ends_step": self.ends_step,
            "block": self.block.to_json() if self.block else None,
        }
        if self.text is not None:
            doc["text"] = self.text
        return doc


@dataclass(frozen=True, slots=True, kw_only=True)
class AdminObservation:
    """The result of an admin event or a restart."""

    outcome: AdminOutcome
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"outcome": self.outcome.value}
        if self.reason:
            doc["reason"] = self.reason
        return doc


Observation = RunObservation | CallObservation | AdminObservation

