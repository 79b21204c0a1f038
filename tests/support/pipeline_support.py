"""Shared helpers for the pipelining tests: a scenario's worth of requests and the recorder fake that answers them."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from conformance.adapters.implementation import Requests, stream
from reference_impl.engine import Engine
from reference_impl.events import Activate, Extend, StartRun
from reference_impl.model import HostConfig, Manifest

ROOT = Path(__file__).resolve().parents[2]
RECORDER = [sys.executable, str(ROOT / "tests" / "fakes" / "pipeline_recorder.py")]

WEATHER = Manifest.from_json({
    "name": "Weather", "module_name": "weather", "version": "1.0.0", "description": "Weather.",
    "allow_sleep": True, "sleep_brief": "Weather for a city.", "injects_prompt": True,
})
START = ([WEATHER], HostConfig(enabled=("weather",)))
EVENTS = [StartRun(conversation="c"), Activate(conversation="c", module_name="weather", rounds=2),
          StartRun(conversation="c"), Extend(conversation="c", module_name="weather"), StartRun(conversation="c"),
          StartRun(conversation="c"), StartRun(conversation="c")]


def expected() -> list[dict]:
    """The reference's observation JSON of each of EVENTS after START."""
    engine = Engine()
    engine.start(*START)
    return [engine.apply(event).to_json() for event in EVENTS]


class Announcing:
    """An adapter that answers through another one and records each stream asked for, with the stream
    announced to come after it (``then``): ``streams`` holds ``(requests, then)`` pairs, in order."""

    def __init__(self, adapter: Any) -> None:
        self.adapter = adapter
        self.streams: list[tuple[Requests, Requests | None]] = []

    def stream(self, events: Any, *, start: Any = None, split_writes: bool = False,
               then: Requests | None = None) -> Iterator[Any]:
        """Record the stream and its successor; answer as the adapter behind does."""
        self.streams.append((Requests.of(events, start=start, split_writes=split_writes), then))
        return stream(self.adapter, events, start=start)

    def announced_what_came(self) -> bool:
        """Whether each stream announced exactly the one asked for next, and the last one none."""
        pairs = zip(self.streams, [*self.streams[1:], (None, None)])
        return bool(self.streams) and all(then == following for (_, then), (following, _) in pairs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.adapter, name)
