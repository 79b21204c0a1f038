"""Broken on purpose: an integer ``rounds`` below 1 is rejected instead of clamped to 1.

activate_plugin(m, 0) and extend_plugin_activation(m, -1) answer invalid_argument, as if
the value were not an integer; rounds above 20 are still clamped.

Breaks: ACT-ARG-2
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import Activate, Event, Extend, Observation


class RejectsSmallRounds(Engine):
    """The reference, except that zero and negative rounds are invalid arguments."""

    info = replace(Engine.info, name="broken-rejects-small-rounds")

    def apply(self, event: Event) -> Observation:
        """Send a call with rounds below 1 on as a non-integer (the bug); else as the reference."""
        if isinstance(event, (Activate, Extend)):
            rounds = event.rounds
            integer = isinstance(rounds, int) and not isinstance(rounds, bool)
            if (integer or (isinstance(rounds, float) and rounds.is_integer())) and rounds < 1:
                event = replace(event, rounds=rounds - 0.5)
        return super().apply(event)


def create() -> RejectsSmallRounds:
    """Factory for ``--impl python:single_rejects_small_rounds:create``."""
    return RejectsSmallRounds()
