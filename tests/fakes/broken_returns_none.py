"""Broken on purpose (hostile): admin events return None (a forgotten ``return``).

The runner must record ``errored`` for any scenario with an admin step and carry on.
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import Disable, Enable, Event, Observation, SetScheduler, SetStrategy


class ReturnsNone(Engine):
    """The reference, except that admin events return None."""

    info = replace(Engine.info, name="broken-returns-none")

    def apply(self, event: Event) -> Observation:
        """Apply the event; drop the observation of admin events."""
        observation = super().apply(event)
        if isinstance(event, (SetStrategy, Enable, Disable, SetScheduler)):
            return None  # type: ignore[return-value]  # the bug under test
        return observation


def create() -> ReturnsNone:
    """Factory for ``--impl python:broken_returns_none:create``."""
    return ReturnsNone()
