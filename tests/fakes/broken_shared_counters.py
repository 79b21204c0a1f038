"""Broken on purpose: one global counter map instead of one per conversation.

Activating a plugin in one conversation makes it active in every other one
(breaks ACT-COUNT-6: counters are per conversation).

Breaks: ACT-COUNT-6
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import Event, Observation

_GLOBAL = "*"


class SharedCounters(Engine):
    """The reference, except that every conversation shares one set of counters."""

    info = replace(Engine.info, name="broken-shared-counters")

    def apply(self, event: Event) -> Observation:
        """Apply the event as if it happened in one global conversation."""
        if hasattr(event, "conversation"):
            event = replace(event, conversation=_GLOBAL)
        return super().apply(event)


def create() -> SharedCounters:
    """Factory for ``--impl python:broken_shared_counters:create``."""
    return SharedCounters()
