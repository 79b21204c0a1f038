"""How one row of the step table reads a scenario step and writes it back: keys, defaults, context.

A step is ``{<key>: <value>, ...expectations}``; the value is a mapping of the event's fields,
any of them left out when it has its default, or a bare value that stands for one field
(``enable: alpha``, ``run: side``), or null when every field has its default (``restart: null``).
:meth:`StepRow.read` and :meth:`StepRow.write` walk the same :class:`Key` list in the same order
with the same defaults, so one is the other's inverse by construction (the property test in
tests/conformance/documents/test_step_table.py checks it for every row). The rows themselves
are in :mod:`conformance.documents.step_table`.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from reference_impl.disclosure_commands import DISCLOSURE_TYPES, DisclosureEvent
from reference_impl.errors import MalformedDocument
from reference_impl.events import Event
from reference_impl.frozen import thaw
from reference_impl.host_commands import HOST_COMMAND_TYPES, HostCommand, Load


class Unwritable(ValueError):
    """An event no scenario step can say, e.g. a call with no adapter in a conversation that has one."""


class _Unset(enum.Enum):
    UNSET = "UNSET"


#: A key's default when it gives none: the event class's own default, or none (the key is required).
UNSET: Final = _Unset.UNSET


@dataclass(slots=True)
class StepContext:
    """What the steps before settle for the next one: each conversation's adapter, and the scenario's load.

    A scenario's ``conversations`` declare adapters; a run that names an adapter moves its
    conversation there for the steps after it (ACT-STATE-7). The loader and the writer each walk
    a scenario's steps in order through one context, which is why it changes (it is the state of
    one walk, not a value).
    """

    adapters: dict[str, str] = field(default_factory=dict)
    load: Load = field(default_factory=Load)


@dataclass(frozen=True, slots=True)
class FromContext:
    """A default the scenario or the steps before settle; ``get(context, fields read so far)``."""

    get: Callable[[StepContext, Mapping[str, Any]], Any]


def same(a: Any, b: Any) -> bool:
    """Equal and of the same JSON type all the way down: ``1``, ``1.0`` and ``True`` differ here.

    A step leaves a key out only when its value is the default in this strict sense, so that
    ``rounds: true`` is never dropped for a default of ``1`` (lists and tuples count as one type).
    """
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(map(same, a, b))
    return type(a) is type(b) and bool(a == b)


def _as_is(value: Any) -> Any:
    return value


@dataclass(frozen=True, slots=True)
class Key:
    """One key of a step's value: the event field it sets, its default and its JSON conversions.

    ``default`` is a value, a :class:`FromContext`, or :data:`UNSET` (the event class's own
    default; required when the class has none). ``fixed`` keys come from the scenario and no
    step may change them (a host_load step's plugins); a ``moves_adapter`` key, written, moves
    the step's conversation to that adapter for the steps after it (a run's adapter).
    """

    name: str
    default: Any = UNSET
    read: Callable[[Any], Any] = _as_is
    write: Callable[[Any], Any] = thaw
    fixed: bool = False
    moves_adapter: bool = False


class Words(Protocol):
    """How the scenario pages write words: translated fixed text, inline code and JSON values."""

    def t(self, english: str) -> str:
        """``english`` in the page's language."""

    def code(self, text: str) -> str:
        """``text`` as inline code."""

    def value(self, data: Any) -> str:
        """A JSON value as inline code."""


class ArgKind(enum.Enum):
    """How a ``pas simulate`` argument is read from its token."""

    NAME = "name"  # a bare word, or a double-quoted JSON string
    JSON = "json"  # JSON when it parses as a finite value, else the bare word
    CHOICE = "choice"  # one of the words of Arg.choices, exactly as written
    NAMES = "names"  # one or more names (as NAME each), up to the next keyword: a list


@dataclass(frozen=True, slots=True)
class Arg:
    """One argument of a ``pas simulate`` command: the step key it fills and how usage shows it."""

    key: str
    shown: str
    kind: ArgKind = ArgKind.NAME
    optional: bool = False
    keyword: str = ""  # written after this word, e.g. ``in CONV``
    choices: tuple[tuple[str, Any], ...] = ()  # CHOICE: (word, value) pairs

    @property
    def usage(self) -> str:
        """``MODULE``, ``[ROUNDS]``, ``[in CONV]``, ``NAME...``."""
        shown = f"{self.shown}..." if self.kind is ArgKind.NAMES else self.shown
        text = f"{self.keyword} {shown}".strip()
        return f"[{text}]" if self.optional else text


@dataclass(frozen=True, slots=True)
class Script:
    """A row's ``pas simulate`` command: its word, its arguments and what it does."""

    word: str
    meaning: str
    args: tuple[Arg, ...] = ()

    @property
    def usage(self) -> str:
        """``activate MODULE [ROUNDS] [in CONV]``."""
        return " ".join([self.word, *(arg.usage for arg in self.args)])


def _name(text: Any) -> str:
    # A label must keep padding and odd characters visible: identifiers bare, the rest as JSON.
    return text if isinstance(text, str) and text.isidentifier() else json.dumps(text)


_WHERE: Final = {"conversation": "in", "thread": "in", "adapter": "on"}  # written after the rest of a label


@dataclass(frozen=True, slots=True, kw_only=True)
class StepRow:
    """One event or host command as a scenario step: its keys, its bare form, its words and its script command.

    ``keys`` name every field of ``type`` in the order a mapping writes them (a key whose default
    depends on another, like adapter on conversation, comes after it); ``bare`` is the key a
    value that is neither a mapping nor null stands for; ``prose`` is the step's text on the
    scenario pages; ``script`` its ``pas simulate`` command, if it has one. ``name`` is the
    scenario key when it is not the wire command's (the disclosure profile's steps say what
    happens in a conversation: ``request``, ``model_step``, not ``disclosure_request``).
    """

    type: type[Event] | type[HostCommand] | type[DisclosureEvent]
    prose: Callable[[Any, Words], str]
    keys: tuple[Key, ...] = ()
    bare: str | None = None
    script: Script | None = None
    name: str = ""

    @property
    def key(self) -> str:
        """The scenario key: ``name``, else the wire command with ``_`` for ``-`` (``set-strategy`` -> ``set_strategy``)."""
        return self.name or self.type.cmd.replace("-", "_")

    @property
    def host(self) -> bool:
        """Whether the row is a host command (host profile) rather than an activation event."""
        return self.type in HOST_COMMAND_TYPES

    @property
    def disclosure(self) -> bool:
        """Whether the row is a disclosure event (disclosure profile)."""
        return self.type in DISCLOSURE_TYPES

    def _default(self, key: Key, context: StepContext, fields: Mapping[str, Any]) -> Any:
        """The value ``key`` has when a step leaves it out; UNSET when it is required."""
        if isinstance(key.default, FromContext):
            return key.default.get(context, fields)
        if key.default is not UNSET:
            return key.default
        found = next(f for f in dataclasses.fields(self.type) if f.name == key.name)
        if found.default is not dataclasses.MISSING:
            return found.default
        if found.default_factory is not dataclasses.MISSING:
            return found.default_factory()
        return UNSET

    def _given(self, value: Any) -> Mapping[str, Any]:
        if value is None:
            return {}
        if isinstance(value, Mapping):
            return value
        if self.bare is None:
            raise MalformedDocument(field=self.key, reason="must be a mapping or null")
        return {self.bare: value}

    def read(self, value: Any, context: StepContext) -> Event | HostCommand | DisclosureEvent:
        """The event a step value stands for; a run naming an adapter moves its conversation in ``context``.

        Raises MalformedDocument when a required key is missing or the value has the wrong
        shape (the scenario schema rules both out before the loader reads a step).
        """
        given = self._given(value)
        fields: dict[str, Any] = {}
        for key in self.keys:
            if key.name in given and not key.fixed:
                fields[key.name] = key.read(given[key.name])
                if key.moves_adapter:
                    context.adapters[fields["conversation"]] = fields[key.name]
                continue
            fields[key.name] = self._default(key, context, fields)
            if fields[key.name] is UNSET:
                raise MalformedDocument(field=f"{self.key}.{key.name}", reason="is required")
        return self.type(**fields)

    def write(self, event: Event | HostCommand | DisclosureEvent, context: StepContext) -> Any:
        """The step value that reads back as ``event`` in ``context`` (the exact inverse of :meth:`read`).

        Raises Unwritable when no step can say it: a fixed key that differs from the scenario's,
        or a key whose writer refuses the value (no adapter where the conversation has one).
        """
        written: dict[str, Any] = {}
        fields: dict[str, Any] = {}
        for key in self.keys:
            value = fields[key.name] = getattr(event, key.name)
            if same(value, self._default(key, context, fields)):
                continue
            if key.fixed:
                raise Unwritable(f"a {self.key} step cannot change the scenario's {key.name}")
            written[key.name] = key.write(value)
            if key.moves_adapter:
                context.adapters[fields["conversation"]] = value
        bare = written.get(self.bare) if self.bare is not None else None
        if set(written) == {self.bare} and bare is not None and not isinstance(bare, Mapping):
            return bare
        return written or None

    def label(self, event: Event | HostCommand | DisclosureEvent, adapters: Mapping[str, str] | None = None) -> str:
        """A short label for reports and fuzz output, e.g. ``activate alpha rounds=1 in side on discord``.

        The keys the step would write, relative to the conversations' declared ``adapters``, and
        the bare key always (``run in main``): the first bare or required one as a word, the
        others as ``key=JSON``, then the conversation (``in``) and adapter (``on``).
        """
        context = StepContext(adapters=dict(adapters or {}))
        parts, where, fields = [self.key], [], {}
        for key in self.keys:
            value = fields[key.name] = getattr(event, key.name)
            default = self._default(key, context, fields)
            if key.fixed or (same(value, default) and key.name != self.bare):
                continue
            if key.name in _WHERE:
                where.append(f"{_WHERE[key.name]} {_name(value)}")
            elif len(parts) == 1 and (key.name == self.bare or default is UNSET):
                parts.append(_name(key.write(value)))
            else:
                parts.append(f"{key.name}={json.dumps(key.write(value))}")
        return " ".join(parts + where)
