"""The options a disclosure implementation declares in ``hello`` (``result.disclosure``), as one frozen value.

Where loaded tools live (``state_scope``), how a deferred tool becomes visible (``discovery``),
whether a loader lists the catalogue (``listing``), who may unload (``unload``), whether one
load may name several tools (``batch``), where a newly visible tool goes (``order``), what a
call of a hidden tool does (``hidden_calls``) and whether loads expire while a thread is idle
(``expiry``, ``expiry_seconds``). Defaults are the recommended values; the hazard values
decline a SHOULD of the spec (``declined_by`` in spec/requirements.yaml). Scenarios ``require``
option values, written ``{option: [allowed values]}``: :meth:`Options.meets` and
:meth:`Options.unmet` read them.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

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


_KINDS: Final[Mapping[str, type[enum.StrEnum]]] = {
    "state_scope": Scope, "discovery": Discovery, "order": Order, "hidden_calls": HiddenCalls, "expiry": Expiry}
_BOOLEANS: Final = ("listing", "batch")
#: Every option, in the order hello and the pages list them.
OPTION_NAMES: Final = ("state_scope", "discovery", "listing", "unload", "batch", "order", "hidden_calls", "expiry",
                       "expiry_seconds")
#: The values each option a scenario may ``require`` takes (``expiry_seconds`` is not required, only declared).
OPTION_VALUES: Final[Mapping[str, tuple[JSON, ...]]] = {
    **{name: tuple(member.value for member in kind) for name, kind in _KINDS.items()},
    "listing": (False, True), "batch": (False, True), "unload": tuple(u.value for u in UnloadBy),
}
#: What ``expiry_seconds`` is taken to be when a combination is enumerated (:func:`every_combination`).
ENUMERATED_EXPIRY_SECONDS: Final = 3600.0


def as_enum(kind: type[enum.StrEnum], value: Any, where: str) -> Any:
    """``kind(value)``; raises MalformedDocument naming ``where`` and the allowed values."""
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(m.value for m in kind)
        raise MalformedDocument(field=where, reason=f"must be one of {allowed}, not {value!r}") from None


def as_bool(value: Any, where: str) -> bool:
    """``value`` when it is true or false; raises MalformedDocument naming ``where``."""
    if not isinstance(value, bool):
        raise MalformedDocument(field=where, reason="must be true or false")
    return value


def _spoken(values: Sequence[JSON]) -> str:
    """``thread or messages``; ``true``; ``model, host``: values as a sentence says them."""
    words = [("true" if v else "false") if isinstance(v, bool) else str(v) for v in values]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    """The options an implementation declares in ``hello``; defaults are the recommended values.

    Raises MalformedDocument for a combination the spec does not allow: ``expiry_seconds``
    without ``expiry: idle`` (or the other way round), a host-side clear or an idle expiry
    under a scope that keeps no state (``messages``, ``request``).
    """

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
        object.__setattr__(self, "unload", frozenset(self.unload))
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

    def value_of(self, option: str) -> tuple[JSON, ...]:
        """The declared value(s) of ``option`` as a tuple of JSON scalars (a set-valued option gives several)."""
        if option == "unload":
            return tuple(sorted(u.value for u in self.unload))
        value = getattr(self, option)
        return (value.value if isinstance(value, enum.Enum) else value,)

    def meets(self, required: Mapping[str, Sequence[JSON]]) -> bool:
        """Whether these options meet ``required`` (each option: one of the allowed values; ``unload``: one of them held)."""
        return not self.unmet(required)

    def unmet(self, required: Mapping[str, Sequence[JSON]]) -> tuple[str, ...]:
        """What of ``required`` these options do not meet, one sentence per option, in ``required``'s order.

        ``state_scope is instance, the scenario requires thread or messages``.
        """
        found = []
        for option, allowed in required.items():
            declared = self.value_of(option)
            if any(_same(v, a) for v in declared for a in allowed):
                continue
            said = _spoken(declared) if declared else "empty"
            found.append(f"{option} is {said}, the scenario requires {_spoken(list(allowed))}")
        return tuple(found)

    def to_json(self) -> dict[str, JSON]:
        """The ``hello`` form (every option given)."""
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
        given: dict[str, Any] = {name: as_enum(kind, doc[name], name) for name, kind in _KINDS.items() if name in doc}
        given.update({name: as_bool(doc[name], name) for name in _BOOLEANS if name in doc})
        if "unload" in doc:
            if not isinstance(doc["unload"], (list, tuple)):
                raise MalformedDocument(field="unload", reason="must be a list (model, host)")
            given["unload"] = frozenset(as_enum(UnloadBy, u, "unload") for u in doc["unload"])
        seconds = doc.get("expiry_seconds")
        if seconds is not None:
            if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
                raise MalformedDocument(field="expiry_seconds", reason="must be a number")
            given["expiry_seconds"] = float(seconds)
        return cls(**given)

    @classmethod
    def from_text(cls, text: str) -> Options:
        """Options from ``state_scope=instance,order=catalogue,unload=model+host`` (what command lines take).

        ``true``/``false`` for listing and batch; ``unload=`` (nothing) for no unload at all;
        ``expiry=idle`` needs ``expiry_seconds=N``. Raises MalformedDocument naming the bad part.
        """
        doc: dict[str, JSON] = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            name, equals, value = part.partition("=")
            name = name.strip()
            if not equals:
                raise MalformedDocument(field=name, reason=f"needs a value: write {name}=VALUE")
            doc[name] = _text_value(name, value.strip())
        return cls.from_json(doc)

    def to_text(self) -> str:
        """The :meth:`from_text` form of the options that differ from the defaults ('' for the defaults)."""
        default, parts = Options().to_json(), []
        for name, value in self.to_json().items():
            if default.get(name) != value:
                shown = "+".join(value) if isinstance(value, list) else str(value).lower() if isinstance(value, bool) \
                    else f"{value:g}" if isinstance(value, float) else str(value)
                parts.append(f"{name}={shown}")
        return ",".join(parts)


#: The public name of :class:`Options` (``from reference_impl import DisclosureOptions``).
DisclosureOptions = Options


def _same(a: JSON, b: JSON) -> bool:
    """Equal and of the same JSON type: a declared ``true`` does not meet a required ``1``."""
    return type(a) is type(b) and a == b


def _text_value(name: str, value: str) -> JSON:
    if name in _BOOLEANS:
        if value not in ("true", "false"):
            raise MalformedDocument(field=name, reason=f"must be true or false, not {value!r}")
        return value == "true"
    if name == "unload":
        return [v for v in value.split("+") if v]
    if name == "expiry_seconds":
        try:
            return float(value)
        except ValueError:
            raise MalformedDocument(field=name, reason=f"must be a number of seconds, not {value!r}") from None
    return value


def every_combination(expiry_seconds: float = ENUMERATED_EXPIRY_SECONDS) -> Iterator[Options]:
    """Every combination of options the spec allows, an idle expiry taken as ``expiry_seconds``.

    The product of every option's values, less what :class:`Options` refuses (960 in all).
    """
    unloads = [frozenset(c) for n in range(len(UnloadBy) + 1) for c in itertools.combinations(UnloadBy, n)]
    for scope, discovery, listing, unload, batch, order, hidden, expiry in itertools.product(
            Scope, Discovery, (False, True), unloads, (False, True), Order, HiddenCalls, Expiry):
        try:
            yield Options(state_scope=scope, discovery=discovery, listing=listing, unload=unload, batch=batch,
                          order=order, hidden_calls=hidden, expiry=expiry,
                          expiry_seconds=expiry_seconds if expiry is Expiry.IDLE else None)
        except MalformedDocument:
            continue


def closest_meeting(required: Mapping[str, Sequence[JSON]]) -> Options | None:
    """The declaration nearest the defaults that meets ``required`` (the fewest options changed); None when none does.

    What a scenario needs at the least: its requirements said as a declaration (ties go to the
    first combination :func:`every_combination` gives).
    """
    defaults = Options().to_json()

    def changed(options: Options) -> int:
        return sum(defaults.get(name) != value for name, value in options.to_json().items())

    meeting = [options for options in every_combination() if options.meets(required)]
    return min(meeting, key=changed) if meeting else None
