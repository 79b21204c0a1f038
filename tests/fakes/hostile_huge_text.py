"""Hostile (in-process): every run observation carries a 1 MB ``text`` and shows no plugin.

So nearly every scenario fails at its first run step, and the runner would keep a megabyte
observation per scenario: it must keep only a bounded part of each (bench/memory.py and
tests/conformance/suite/test_run_limits.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from reference_impl.engine import Engine
from reference_impl.events import Event, StartRun

TEXT_BYTES = 1_000_000


class HugeText(Engine):
    """The reference, except that each run's text is a megabyte of filler."""

    info = replace(Engine.info, name="hostile-huge-text")

    def apply(self, event: Event) -> Any:
        """Apply the event; pad a run's observation with a 1 MB text and rename every plugin shown."""
        observation = super().apply(event)
        if isinstance(event, StartRun):
            doc = observation.to_json()
            doc["text"] = "x" * TEXT_BYTES
            doc["plugins"] = [{**view, "module_name": f"{view['module_name']}-renamed"} for view in doc["plugins"]]
            return doc
        return observation


def create() -> HugeText:
    """Factory for ``--impl python:hostile_huge_text:create``."""
    return HugeText()
