"""What the disclosure profile observes: each call's answer and the tool list of the next model call.

An implementation writes these; the runner reads them back as JSON (the step's expectations
compare them key by key). Tool lists are exact and in order: catalogue tools by name, loader
tools as ``@role`` tokens (:class:`~reference_impl.disclosure_options.Role`). The events that
produce them are :mod:`reference_impl.disclosure_commands`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

JSON = Any


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
