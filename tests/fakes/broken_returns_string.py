"""Broken on purpose (hostile): call replies come back as a JSON string, not an observation.

The implementation serialises its reply twice. The runner must record ``errored`` and
carry on.
"""

from __future__ import annotations

import json
from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import Activate, Event, Extend, Observation


class ReturnsString(Engine):
    """The reference, except that call replies are JSON text."""

    info = replace(Engine.info, name="broken-returns-string")

    def apply(self, event: Event) -> Observation:
        """Apply the event; return a call's reply as a JSON string."""
        observation = super().apply(event)
        if isinstance(event, (Activate, Extend)):
            return json.dumps(observation.to_json())  # type: ignore[return-value]  # the bug under test
        return observation


def create() -> ReturnsString:
    """Factory for ``--impl python:broken_returns_string:create``."""
    return ReturnsString()
