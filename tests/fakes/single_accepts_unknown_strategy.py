"""Broken on purpose: an unknown strategy is accepted (as ``auto``) instead of rejected.

set_strategy(weather, "forbid-sleep") answers applied and replaces the previous strategy
with auto, instead of answering rejected and keeping it.

Breaks: ACT-ADMIN-1
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import AdminObservation, Event, Observation, SetStrategy
from reference_impl.model import AdminOutcome, Strategy


class AcceptsUnknownStrategy(Engine):
    """The reference, except that a strategy it does not know becomes auto."""

    info = replace(Engine.info, name="broken-accepts-unknown-strategy")

    def apply(self, event: Event) -> Observation:
        """Apply an unknown strategy as auto and answer applied (the bug); else as the reference."""
        if isinstance(event, SetStrategy) and event.strategy not in {s.value for s in Strategy}:
            observation = super().apply(replace(event, strategy=Strategy.AUTO.value))
            if isinstance(observation, AdminObservation) and observation.outcome is AdminOutcome.APPLIED:
                return observation
            return AdminObservation(outcome=AdminOutcome.APPLIED)
        return super().apply(event)


def create() -> AcceptsUnknownStrategy:
    """Factory for ``--impl python:single_accepts_unknown_strategy:create``."""
    return AcceptsUnknownStrategy()
