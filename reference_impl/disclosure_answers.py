"""What the disclosure profile observes: each call's answer and the tool list of the next model call.

An implementation writes these; the runner reads them back as JSON (the step's expectations
compare them key by key). Tool lists are exact and in order: catalogue tools by name, loader
tools as ``@role`` tokens (:class:`~reference_impl.disclosure_options.Role`). The events that
produce them are :mod:`reference_impl.disclosure_commands`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reference_impl.errors import MalformedDocument

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


def _with_text(doc: dict[str, JSON], text: str | None) -> dict[str, JSON]:
    if text is not None:
        doc["text"] = text
    return doc


@dataclass(frozen=True, slots=True, kw_only=True)
class LoadAnswer:
    """The answer to a load or unload: one result per distinct name asked for, first-seen order.

    ``text`` is the answer as the model reads it, when the implementation gives it (every
    answer has one; the reference gives none).
    """

    call: str  # "load" or "unload"
    results: tuple[tuple[str, LoadOutcome], ...]
    text: str | None = None

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return _with_text({"call": self.call, "results": [{"name": n, "outcome": o.value} for n, o in self.results]},
                          self.text)


@dataclass(frozen=True, slots=True, kw_only=True)
class SearchAnswer:
    """The answer to a search: the names it found, and those it made visible itself."""

    found: tuple[str, ...]
    loaded: tuple[str, ...] = ()
    text: str | None = None

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return _with_text({"call": "search", "found": list(self.found), "loaded": list(self.loaded)}, self.text)


@dataclass(frozen=True, slots=True, kw_only=True)
class ListAnswer:
    """The answer to a listing: every catalogue tool, and whether the current model call shows it."""

    listed: tuple[tuple[str, bool], ...]
    text: str | None = None

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return _with_text({"call": "list", "listed": [{"name": n, "loaded": shown} for n, shown in self.listed]},
                          self.text)


@dataclass(frozen=True, slots=True, kw_only=True)
class InvokeAnswer:
    """The answer to a call of a catalogue tool: whether the tool itself ran."""

    name: str
    outcome: InvokeOutcome
    text: str | None = None

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return _with_text({"call": "invoke", "name": self.name, "outcome": self.outcome.value}, self.text)


@dataclass(frozen=True, slots=True, kw_only=True)
class UnsupportedAnswer:
    """The host offers no tool for this kind of call (its declared options said it would: an error of the declaration)."""

    call: str
    text: str | None = None

    def to_json(self) -> dict[str, JSON]:
        """The wire form."""
        return _with_text({"call": self.call, "unsupported": True}, self.text)


Answer = LoadAnswer | SearchAnswer | ListAnswer | InvokeAnswer | UnsupportedAnswer


def answer_from_json(doc: Mapping[str, JSON]) -> Answer:
    """One answer from its wire form (spec/schemas/protocol/common: disclosure_answer).

    Raises MalformedDocument, KeyError, TypeError or ValueError on a wrong shape.
    """
    if not isinstance(doc, Mapping):
        raise MalformedDocument(field="answers", reason="each answer must be an object")
    call, text = doc["call"], doc.get("text")
    if doc.get("unsupported") is True:
        return UnsupportedAnswer(call=call, text=text)
    if call in ("load", "unload"):
        return LoadAnswer(call=call, text=text,
                          results=tuple((r["name"], LoadOutcome(r["outcome"])) for r in doc["results"]))
    if call == "search":
        return SearchAnswer(found=tuple(doc["found"]), loaded=tuple(doc["loaded"]), text=text)
    if call == "list":
        return ListAnswer(listed=tuple((item["name"], bool(item["loaded"])) for item in doc["listed"]), text=text)
    if call == "invoke":
        return InvokeAnswer(name=doc["name"], outcome=InvokeOutcome(doc["outcome"]), text=text)
    raise MalformedDocument(field="call", reason=f"is not a kind of call: {call!r}")


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


def disclosure_observation_from_json(cmd: str, doc: Mapping[str, JSON]) -> DisclosureObservation:
    """The observation answering the disclosure command ``cmd``, from its JSON (the runner's side of the wire).

    Raises MalformedDocument when ``doc`` does not have that observation's shape.
    """
    try:
        if cmd == "disclosure-request":
            return ToolsObservation(tools=tuple(doc["tools"]))
        if cmd == "disclosure-step":
            return StepObservation(answers=tuple(answer_from_json(a) for a in doc["answers"]), tools=tuple(doc["tools"]))
        if doc:
            raise ValueError("must be an empty object")
        return Done()
    except (KeyError, TypeError, ValueError) as error:  # MalformedDocument is a ValueError
        raise MalformedDocument(field="result", reason=f"is not a {cmd!r} observation: {error}") from None
