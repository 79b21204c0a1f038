"""One disclosure fuzz case: a catalogue, the declaration it runs under, and the events sent after it.

Like :class:`~conformance.fuzz.case.Case`, plain data: the generator
(:mod:`conformance.fuzz.disclosure_generate`) builds cases, the minimiser derives simpler ones
(:mod:`conformance.fuzz.disclosure_minimise`) and the emitter writes one as a scenario file
(:mod:`conformance.fuzz.disclosure_emit`). ``disclosure-start`` with the catalogue is sent
first, as the runner does with a disclosure scenario.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any

from conformance.documents.step_form import StepContext
from conformance.documents.step_table import write_steps
from reference_impl.disclosure_commands import (
    DisclosureEvent,
    DisclosureStart,
    EndRequest,
    ModelStep,
    Rebuild,
    Request,
    Tool,
)
from reference_impl.disclosure_options import Options, UnloadBy


def valid(events: tuple[DisclosureEvent, ...]) -> bool:
    """Whether every model step happens in a thread with an open request (what the scenario loader requires)."""
    open_threads: set[str] = set()
    for event in events:
        if isinstance(event, Request):
            open_threads.add(event.thread)
        elif isinstance(event, EndRequest):
            open_threads.discard(event.thread)
        elif isinstance(event, Rebuild):
            open_threads.clear()
        elif isinstance(event, ModelStep) and event.thread not in open_threads:
            return False
    return True


@dataclass(frozen=True, slots=True, kw_only=True)
class DisclosureCase:
    """A catalogue, the declaration under which both sides run, and the events after ``disclosure-start``.

    ``unload`` says which kind of unload the events use (a scenario's ``requires`` can ask for
    one of model or host, not both): ``model`` (unload calls), ``host`` (clear steps) or None.
    """

    tools: tuple[Tool, ...]
    declared: Options
    events: tuple[DisclosureEvent, ...]
    unload: UnloadBy | None = None

    @property
    def opening(self) -> DisclosureStart:
        """The first event: the catalogue."""
        return DisclosureStart(tools=self.tools)

    def to_json(self) -> dict[str, Any]:
        """A JSON form (for hashing and debugging; scenario files are written by the emitter)."""
        return {"tools": [t.to_json() for t in self.tools], "declared": self.declared.to_json(),
                "events": [e.to_json() for e in self.events]}

    @property
    def digest(self) -> str:
        """Ten hex digits identifying the case's content (the emitted scenario id uses them)."""
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        return hashlib.sha256(text.encode()).hexdigest()[:10]

    def written_steps(self) -> tuple[tuple[str, Any], ...] | None:
        """Each event as a scenario step ``(key, value)``; None when a model step has no open request."""
        if not valid(self.events):
            return None
        return write_steps(self.events, StepContext())

    def truncated(self, last: int) -> DisclosureCase:
        """The case up to and including event ``last``."""
        return replace(self, events=self.events[: last + 1])

    def requires(self) -> dict[str, list[Any]]:
        """The scenario ``requires`` that pins this case's declaration (every option it can name)."""
        pinned: dict[str, list[Any]] = {name: [value] for name, value in self.declared.to_json().items()
                                        if name not in ("unload", "expiry_seconds")}
        if self.unload is not None:
            pinned["unload"] = [self.unload.value]
        return pinned
