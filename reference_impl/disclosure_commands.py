"""The disclosure profile's vocabulary: options, the catalogue, events, calls and observations.

Progressive tool disclosure hosts (a catalogue of deferred tools, loader tools the model calls,
loaded state kept per thread, host object, message history or request) are driven by these
events; :mod:`reference_impl.disclosure` applies them. Wire commands are ``disclosure-*``.
Loader tools appear in tool lists as role tokens (``@search``, ``@load``, ``@unload``, ``@list``),
never under a host's own names. The options an implementation declares are
:mod:`reference_impl.disclosure_options`. Every type here is a frozen value: tuples, enum members
and :class:`~reference_impl.frozen.FrozenMap` all the way down.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from reference_impl.disclosure_options import as_bool, as_enum
from reference_impl.errors import MalformedDocument
from reference_impl.frozen import EMPTY, FrozenMap, thaw

JSON = Any


@dataclass(frozen=True, slots=True, kw_only=True)
class Tool:
    """One catalogue tool: what the model would see once it is visible."""

    name: str
    description: str = ""
    parameters: Mapping[str, JSON] = EMPTY
    always_visible: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "parameters", FrozenMap(self.parameters))

    def to_json(self) -> dict[str, JSON]:
        """The wire and scenario form (defaults left out)."""
        doc: dict[str, JSON] = {"name": self.name, "description": self.description}
        if self.parameters:
            doc["parameters"] = thaw(self.parameters)
        if self.always_visible:
            doc["always_visible"] = True
        return doc

    @classmethod
    def from_json(cls, doc: Mapping[str, JSON]) -> Tool:
        """Build from the wire form; raises MalformedDocument."""
        if not isinstance(doc, Mapping) or not isinstance(doc.get("name"), str) or doc["name"].startswith("@"):
            raise MalformedDocument(field="tools", reason="each tool needs a name (a string not starting with @)")
        return cls(name=doc["name"], description=str(doc.get("description", "")),
                   parameters=dict(doc.get("parameters") or {}), always_visible=as_bool(doc.get("always_visible", False),
                                                                                         "always_visible"))


# ---------------------------------------------------------------- calls the model makes in one step

def _names(value: Any, where: str) -> tuple[str, ...]:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise MalformedDocument(field=where, reason="must be a name or a list of names")
    return tuple(names)


@dataclass(frozen=True, slots=True, kw_only=True)
class LoadCall:
    """``load``: make the named tools visible (``unload`` when ``unload`` is true). ``several``: asked as a list."""

    names: tuple[str, ...]
    several: bool = False
    unload: bool = False

    @property
    def key(self) -> str:
        """The call's key in a step: ``load`` or ``unload``."""
        return "unload" if self.unload else "load"

    def to_json(self) -> dict[str, JSON]:
        """The wire form: ``{"load": name}`` or ``{"load": [names]}``."""
        return {self.key: list(self.names) if self.several else self.names[0]}


@dataclass(frozen=True, slots=True, kw_only=True)
class SearchCall:
    """``search``: look the catalogue up with a query."""

    query: str
    key: ClassVar[str] = "search"

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return {"search": self.query}


@dataclass(frozen=True, slots=True, kw_only=True)
class ListCall:
    """``list``: ask for the catalogue with what is loaded."""

    key: ClassVar[str] = "list"

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return {"list": None}


@dataclass(frozen=True, slots=True, kw_only=True)
class InvokeCall:
    """``invoke``: call a catalogue tool itself."""

    name: str
    arguments: Mapping[str, JSON] = EMPTY
    key: ClassVar[str] = "invoke"

    def __post_init__(self) -> None:
        object.__setattr__(self, "arguments", FrozenMap(self.arguments))

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        doc: dict[str, JSON] = {"invoke": self.name}
        if self.arguments:
            doc["arguments"] = thaw(self.arguments)
        return doc


Call = LoadCall | SearchCall | ListCall | InvokeCall


def call_from_json(doc: Mapping[str, JSON]) -> Call:
    """One call of a model step from its wire form; raises MalformedDocument."""
    if not isinstance(doc, Mapping):
        raise MalformedDocument(field="calls", reason="each call must be a mapping")
    keys = [k for k in ("load", "unload", "search", "list", "invoke") if k in doc]
    if len(keys) != 1:
        raise MalformedDocument(field="calls", reason="each call has exactly one of load, unload, search, list, invoke")
    key = keys[0]
    if key in ("load", "unload"):
        return LoadCall(names=_names(doc[key], key), several=not isinstance(doc[key], str), unload=key == "unload")
    if key == "search":
        if not isinstance(doc["search"], str):
            raise MalformedDocument(field="search", reason="must be a query string")
        return SearchCall(query=doc["search"])
    if key == "list":
        return ListCall()
    if not isinstance(doc["invoke"], str):
        raise MalformedDocument(field="invoke", reason="must be a tool name")
    return InvokeCall(name=doc["invoke"], arguments=dict(doc.get("arguments") or {}))


# ---------------------------------------------------------------- events

@dataclass(frozen=True, slots=True, kw_only=True)
class DisclosureStart:
    """Install a catalogue; forget every earlier thread, request and loaded tool."""

    cmd: ClassVar[str] = "disclosure-start"
    tools: tuple[Tool, ...] = ()

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return {"cmd": self.cmd, "tools": [t.to_json() for t in self.tools]}


@dataclass(frozen=True, slots=True, kw_only=True)
class Request:
    """A user turn on ``thread``: a still-open request there ends first; observed: the first model call's tools."""

    cmd: ClassVar[str] = "disclosure-request"
    thread: str = "main"

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return {"cmd": self.cmd, "thread": self.thread}


@dataclass(frozen=True, slots=True, kw_only=True)
class ModelStep:
    """The model's tool calls in ``thread``'s open request; observed: one answer per call and the next call's tools."""

    cmd: ClassVar[str] = "disclosure-step"
    thread: str = "main"
    calls: tuple[Call, ...] = ()

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return {"cmd": self.cmd, "thread": self.thread, "calls": [c.to_json() for c in self.calls]}


@dataclass(frozen=True, slots=True, kw_only=True)
class EndRequest:
    """The model answers with text: ``thread``'s open request completes."""

    cmd: ClassVar[str] = "disclosure-end"
    thread: str = "main"

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return {"cmd": self.cmd, "thread": self.thread}


class Store(enum.StrEnum):
    """What a rebuilt host finds of its store (threads, history, persisted state)."""

    KEPT = "kept"
    RESET = "reset"


@dataclass(frozen=True, slots=True, kw_only=True)
class Rebuild:
    """The host object is built anew, with its ``store`` (threads, history, persisted state) kept or reset."""

    cmd: ClassVar[str] = "disclosure-rebuild"
    store: Store

    def __post_init__(self) -> None:
        object.__setattr__(self, "store", as_enum(Store, self.store, "store"))

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return {"cmd": self.cmd, "store": self.store.value}


@dataclass(frozen=True, slots=True, kw_only=True)
class Trim:
    """Before ``thread``'s next request only its last ``keep`` messages remain."""

    cmd: ClassVar[str] = "disclosure-trim"
    thread: str = "main"
    keep: int

    def __post_init__(self) -> None:
        if isinstance(self.keep, bool) or not isinstance(self.keep, int) or self.keep < 0:
            raise MalformedDocument(field="keep", reason="must be a whole number of messages, 0 or more")

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return {"cmd": self.cmd, "thread": self.thread, "keep": self.keep}


@dataclass(frozen=True, slots=True, kw_only=True)
class Idle:
    """``seconds`` pass with no activity on any thread."""

    cmd: ClassVar[str] = "disclosure-idle"
    seconds: float

    def __post_init__(self) -> None:
        if isinstance(self.seconds, bool) or not isinstance(self.seconds, (int, float)) or not self.seconds >= 0:
            raise MalformedDocument(field="seconds", reason="must be a number of seconds, 0 or more")
        object.__setattr__(self, "seconds", float(self.seconds))

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return {"cmd": self.cmd, "seconds": self.seconds}


@dataclass(frozen=True, slots=True, kw_only=True)
class Clear:
    """The host's own API clears ``thread``'s loaded tools (option ``unload`` holds ``host``)."""

    cmd: ClassVar[str] = "disclosure-clear"
    thread: str = "main"

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return {"cmd": self.cmd, "thread": self.thread}


DisclosureEvent = DisclosureStart | Request | ModelStep | EndRequest | Rebuild | Trim | Idle | Clear
#: Every disclosure event class, for ``isinstance``.
DISCLOSURE_TYPES: Final = (DisclosureStart, Request, ModelStep, EndRequest, Rebuild, Trim, Idle, Clear)
#: The disclosure event classes by wire command.
DISCLOSURE_EVENT_TYPES: Final[Mapping[str, type[DisclosureEvent]]] = {t.cmd: t for t in DISCLOSURE_TYPES}


def _text(doc: Mapping[str, JSON], key: str, default: str) -> str:
    value = doc.get(key, default)
    if not isinstance(value, str):
        raise MalformedDocument(field=key, reason="must be a string")
    return value


def disclosure_event_from_json(doc: Mapping[str, JSON]) -> DisclosureEvent:
    """A disclosure event from ``{"cmd": "disclosure-...", ...}``; raises MalformedDocument on a wrong shape."""
    cmd = doc.get("cmd")
    if cmd == "disclosure-start":
        tools = doc.get("tools", [])
        if not isinstance(tools, list):
            raise MalformedDocument(field="tools", reason="must be a list of tools")
        return DisclosureStart(tools=tuple(Tool.from_json(t) for t in tools))
    if cmd == "disclosure-step":
        calls = doc.get("calls", [])
        if not isinstance(calls, list):
            raise MalformedDocument(field="calls", reason="must be a list of calls")
        return ModelStep(thread=_text(doc, "thread", "main"), calls=tuple(call_from_json(c) for c in calls))
    if cmd in ("disclosure-request", "disclosure-end", "disclosure-clear"):
        thread = _text(doc, "thread", "main")
        return Request(thread=thread) if cmd == Request.cmd else EndRequest(thread=thread) if cmd == EndRequest.cmd \
            else Clear(thread=thread)
    if cmd == "disclosure-rebuild":
        return Rebuild(store=as_enum(Store, doc.get("store", Store.KEPT.value), "store"))
    if cmd == "disclosure-trim":
        return Trim(thread=_text(doc, "thread", "main"), keep=doc.get("keep", 0))
    if cmd == "disclosure-idle":
        return Idle(seconds=doc.get("seconds", -1))  # absent: refused as not a number of seconds
    raise MalformedDocument(field="cmd", reason=f"is not a disclosure command: {cmd!r}")
