"""The disclosure profile's vocabulary: options, the catalogue, events, calls and observations.

Progressive tool disclosure hosts (a catalogue of deferred tools, loader tools the model calls,
loaded state kept per thread, host object, message history or request) are driven by these
events; :mod:`reference_impl.disclosure` applies them. Wire commands are ``disclosure-*``.
Loader tools appear in tool lists as role tokens (``@search``, ``@load``, ``@unload``, ``@list``),
never under a host's own names.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from reference_impl.errors import MalformedDocument

JSON = Any


class Scope(enum.StrEnum):
    """Where loaded state lives (option ``state_scope``)."""

    THREAD = "thread"
    INSTANCE = "instance"
    MESSAGES = "messages"
    REQUEST = "request"


class Discovery(enum.StrEnum):
    """How the model makes a deferred tool visible (option ``discovery``)."""

    LOAD_BY_NAME = "load_by_name"
    SEARCH_THEN_LOAD = "search_then_load"
    SEARCH_LOADS = "search_loads"


class Order(enum.StrEnum):
    """Where a newly visible tool goes in the tool list (option ``order``)."""

    APPEND = "append"
    CATALOGUE = "catalogue"


class HiddenCalls(enum.StrEnum):
    """What a call of a tool the current model call does not show does (option ``hidden_calls``)."""

    REFUSED = "refused"
    EXECUTED = "executed"


class Expiry(enum.StrEnum):
    """Whether loaded state expires while a thread is idle (option ``expiry``)."""

    NONE = "none"
    IDLE = "idle"


class UnloadBy(enum.StrEnum):
    """Who may unload (option ``unload``, a set): the model through a loader tool, the host through its API."""

    MODEL = "model"
    HOST = "host"


class Role(enum.StrEnum):
    """A loader tool's role; its token in a tool list is ``@`` + the role."""

    SEARCH = "search"
    LOAD = "load"
    UNLOAD = "unload"
    LIST = "list"

    @property
    def token(self) -> str:
        """How the loader appears in an observed tool list."""
        return "@" + self.value


def _enum(kind: type[enum.StrEnum], value: Any, where: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(m.value for m in kind)
        raise MalformedDocument(field=where, reason=f"must be one of {allowed}, not {value!r}") from None


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise MalformedDocument(field=where, reason="must be true or false")
    return value


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    """The options an implementation declares in ``hello`` (``result.disclosure``); defaults are the recommended values."""

    state_scope: Scope = Scope.THREAD
    discovery: Discovery = Discovery.LOAD_BY_NAME
    listing: bool = False
    unload: frozenset[UnloadBy] = frozenset({UnloadBy.MODEL})
    batch: bool = True
    order: Order = Order.APPEND
    hidden_calls: HiddenCalls = HiddenCalls.REFUSED
    expiry: Expiry = Expiry.NONE
    expiry_seconds: float | None = None

    def __post_init__(self) -> None:
        if (self.expiry is Expiry.IDLE) != (self.expiry_seconds is not None):
            raise MalformedDocument(field="expiry_seconds", reason="is given exactly when expiry is idle")
        if self.expiry_seconds is not None and not self.expiry_seconds > 0:
            raise MalformedDocument(field="expiry_seconds", reason="must be a positive number")
        if UnloadBy.HOST in self.unload and self.state_scope in (Scope.MESSAGES, Scope.REQUEST):
            raise MalformedDocument(field="unload", reason=f"cannot hold host under state_scope {self.state_scope.value} "
                                    "(there is no loaded state a host could clear)")
        if self.expiry is Expiry.IDLE and self.state_scope in (Scope.MESSAGES, Scope.REQUEST):
            raise MalformedDocument(field="expiry", reason=f"cannot be idle under state_scope {self.state_scope.value} "
                                    "(there is no loaded state that could expire)")

    @property
    def roles(self) -> tuple[Role, ...]:
        """The loader tools these options imply, in the reference's fixed order (DISC-CAT-3)."""
        roles = []
        if self.discovery is not Discovery.LOAD_BY_NAME:
            roles.append(Role.SEARCH)
        if self.discovery is not Discovery.SEARCH_LOADS:
            roles.append(Role.LOAD)
        if UnloadBy.MODEL in self.unload:
            roles.append(Role.UNLOAD)
        if self.listing:
            roles.append(Role.LIST)
        return tuple(roles)

    def value_of(self, option: str) -> tuple[Any, ...]:
        """The declared value(s) of ``option`` as a tuple of JSON scalars (a set-valued option gives several)."""
        if option == "unload":
            return tuple(sorted(u.value for u in self.unload))
        value = getattr(self, option)
        return (value.value if isinstance(value, enum.Enum) else value,)

    def meets(self, required: Mapping[str, Sequence[Any]]) -> bool:
        """Whether these options meet a scenario's ``requires`` (each option: one of the allowed values)."""
        return all(set(self.value_of(option)) & set(allowed) for option, allowed in required.items())

    def to_json(self) -> dict[str, JSON]:
        """The ``hello`` form."""
        doc: dict[str, JSON] = {
            "state_scope": self.state_scope.value, "discovery": self.discovery.value, "listing": self.listing,
            "unload": sorted(u.value for u in self.unload), "batch": self.batch, "order": self.order.value,
            "hidden_calls": self.hidden_calls.value, "expiry": self.expiry.value,
        }
        if self.expiry_seconds is not None:
            doc["expiry_seconds"] = self.expiry_seconds
        return doc

    @classmethod
    def from_json(cls, doc: Mapping[str, JSON]) -> Options:
        """Build from the ``hello`` form; absent options take their defaults. Raises MalformedDocument."""
        if not isinstance(doc, Mapping):
            raise MalformedDocument(field="disclosure", reason="must be a mapping of options")
        unknown = sorted(set(doc) - set(OPTION_NAMES))
        if unknown:
            raise MalformedDocument(field=unknown[0], reason=f"is not a disclosure option (known: {', '.join(OPTION_NAMES)})")
        given: dict[str, Any] = {}
        kinds: dict[str, type[enum.StrEnum]] = {"state_scope": Scope, "discovery": Discovery, "order": Order,
                                                "hidden_calls": HiddenCalls, "expiry": Expiry}
        for name, kind in kinds.items():
            if name in doc:
                given[name] = _enum(kind, doc[name], name)
        for name in ("listing", "batch"):
            if name in doc:
                given[name] = _bool(doc[name], name)
        if "unload" in doc:
            if not isinstance(doc["unload"], list):
                raise MalformedDocument(field="unload", reason="must be a list (model, host)")
            given["unload"] = frozenset(_enum(UnloadBy, u, "unload") for u in doc["unload"])
        seconds = doc.get("expiry_seconds")
        if seconds is not None:
            if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
                raise MalformedDocument(field="expiry_seconds", reason="must be a number")
            given["expiry_seconds"] = float(seconds)
        return cls(**given)


OPTION_NAMES: Final = ("state_scope", "discovery", "listing", "unload", "batch", "order", "hidden_calls", "expiry",
                       "expiry_seconds")


@dataclass(frozen=True, slots=True, kw_only=True)
class Tool:
    """One catalogue tool: what the model would see once it is visible."""

    name: str
    description: str = ""
    parameters: Mapping[str, JSON] = field(default_factory=dict)
    always_visible: bool = False

    def to_json(self) -> dict[str, JSON]:
        """The wire and scenario form (defaults left out)."""
        doc: dict[str, JSON] = {"name": self.name, "description": self.description}
        if self.parameters:
            doc["parameters"] = dict(self.parameters)
        if self.always_visible:
            doc["always_visible"] = True
        return doc

    @classmethod
    def from_json(cls, doc: Mapping[str, JSON]) -> Tool:
        """Build from the wire form; raises MalformedDocument."""
        if not isinstance(doc, Mapping) or not isinstance(doc.get("name"), str) or doc["name"].startswith("@"):
            raise MalformedDocument(field="tools", reason="each tool needs a name (a string not starting with @)")
        return cls(name=doc["name"], description=str(doc.get("description", "")),
                   parameters=dict(doc.get("parameters") or {}), always_visible=_bool(doc.get("always_visible", False),
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
    arguments: Mapping[str, JSON] = field(default_factory=dict)
    key: ClassVar[str] = "invoke"

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        doc: dict[str, JSON] = {"invoke": self.name}
        if self.arguments:
            doc["arguments"] = dict(self.arguments)
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


@dataclass(frozen=True, slots=True, kw_only=True)
class Rebuild:
    """The host object is built anew, with its store (threads, history, persisted state) ``kept`` or reset."""

    cmd: ClassVar[str] = "disclosure-rebuild"
    store_kept: bool = True

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return {"cmd": self.cmd, "store": "kept" if self.store_kept else "reset"}


@dataclass(frozen=True, slots=True, kw_only=True)
class Trim:
    """Before ``thread``'s next request only its last ``keep`` messages remain."""

    cmd: ClassVar[str] = "disclosure-trim"
    thread: str = "main"
    keep: int = 0

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return {"cmd": self.cmd, "thread": self.thread, "keep": self.keep}


@dataclass(frozen=True, slots=True, kw_only=True)
class Idle:
    """``seconds`` pass with no activity on any thread."""

    cmd: ClassVar[str] = "disclosure-idle"
    seconds: float = 0.0

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
DISCLOSURE_EVENT_TYPES: Final[Mapping[str, type[DisclosureEvent]]] = {
    t.cmd: t for t in (DisclosureStart, Request, ModelStep, EndRequest, Rebuild, Trim, Idle, Clear)
}


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
        kind = {"disclosure-request": Request, "disclosure-end": EndRequest, "disclosure-clear": Clear}[cmd]
        return kind(thread=_text(doc, "thread", "main"))
    if cmd == "disclosure-rebuild":
        store = doc.get("store", "kept")
        if store not in ("kept", "reset"):
            raise MalformedDocument(field="store", reason="must be kept or reset")
        return Rebuild(store_kept=store == "kept")
    if cmd == "disclosure-trim":
        keep = doc.get("keep", 0)
        if isinstance(keep, bool) or not isinstance(keep, int) or keep < 0:
            raise MalformedDocument(field="keep", reason="must be a whole number of messages, 0 or more")
        return Trim(thread=_text(doc, "thread", "main"), keep=keep)
    if cmd == "disclosure-idle":
        seconds = doc.get("seconds")
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds < 0:
            raise MalformedDocument(field="seconds", reason="must be a number of seconds, 0 or more")
        return Idle(seconds=float(seconds))
    raise MalformedDocument(field="cmd", reason=f"is not a disclosure command: {cmd!r}")


# ---------------------------------------------------------------- answers and observations

class LoadOutcome(enum.StrEnum):
    """What a load or an unload did to one name."""

    LOADED = "loaded"
    ALREADY_LOADED = "already_loaded"
    UNLOADED = "unloaded"
    NOT_LOADED = "not_loaded"
    REFUSED = "refused"
    NOT_FOUND = "not_found"
    UNSTATED = "unstated"


class InvokeOutcome(enum.StrEnum):
    """What a call of a catalogue tool did."""

    EXECUTED = "executed"
    REFUSED = "refused"
    NOT_FOUND = "not_found"


@dataclass(frozen=True, slots=True, kw_only=True)
class LoadAnswer:
    """The answer to a load or unload: one result per distinct name asked for, first-seen order."""

    call: str  # "load" or "unload"
    results: tuple[tuple[str, LoadOutcome], ...]

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return {"call": self.call, "results": [{"name": n, "outcome": o.value} for n, o in self.results]}


@dataclass(frozen=True, slots=True, kw_only=True)
class SearchAnswer:
    """The answer to a search: the names it found, and those it made visible itself."""

    found: tuple[str, ...]
    loaded: tuple[str, ...] = ()

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return {"call": "search", "found": list(self.found), "loaded": list(self.loaded)}


@dataclass(frozen=True, slots=True, kw_only=True)
class ListAnswer:
    """The answer to a listing: every catalogue tool, and whether the current model call shows it."""

    listed: tuple[tuple[str, bool], ...]

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return {"call": "list", "listed": [{"name": n, "loaded": shown} for n, shown in self.listed]}


@dataclass(frozen=True, slots=True, kw_only=True)
class InvokeAnswer:
    """The answer to a call of a catalogue tool: whether the tool itself ran."""

    name: str
    outcome: InvokeOutcome

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return {"call": "invoke", "name": self.name, "outcome": self.outcome.value}


Answer = LoadAnswer | SearchAnswer | ListAnswer | InvokeAnswer


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolsObservation:
    """The tool list of the next model call (after ``disclosure-request``: the first one), with loaders as tokens."""

    tools: tuple[str, ...]

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return {"tools": list(self.tools)}


@dataclass(frozen=True, slots=True, kw_only=True)
class StepObservation:
    """A model step's answers (one per call, in order) and the tool list of the next model call."""

    answers: tuple[Answer, ...]
    tools: tuple[str, ...]

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return {"answers": [a.to_json() for a in self.answers], "tools": list(self.tools)}


@dataclass(frozen=True, slots=True, kw_only=True)
class Done:
    """The acknowledgement of an event that shows the model nothing (start, end, rebuild, trim, idle, clear)."""

    def to_json(self) -> dict[str, JSON]:
        """The wire form: an empty object."""
        return {}


DisclosureObservation = ToolsObservation | StepObservation | Done
