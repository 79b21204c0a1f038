"""Broken on purpose: extend_plugin_activation adds without the cap of 20.

Each argument is clamped to 1..20, but the sum is not: 19 + 5 stores 24
(breaks ACT-EXTEND-6).

Breaks: ACT-EXTEND-6
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import Event, Extend, Observation
from reference_impl.model import OutcomeKind
from reference_impl.scheduler import parse_rounds


class ExtendNoClamp(Engine):
    """The reference, except that extension totals may pass 20."""

    info = replace(Engine.info, name="broken-extend-no-clamp")

    def apply(self, event: Event) -> Observation:
        """Apply as the reference does; for an extension, store the uncapped sum."""
        if not isinstance(event, Extend):
            return super().apply(event)
        before = self._state.counters_of(event.conversation).get(event.module_name, 0)
        observation = super().apply(event)
        if observation.outcome is not OutcomeKind.EXTENDED:
            return observation
        total = before + parse_rounds(event.rounds, self._semantics)
        counters = {**self._state.counters_of(event.conversation), event.module_name: total}
        self._state = self._state.with_counters(event.conversation, counters)
        return replace(observation, rounds=total)


def create() -> ExtendNoClamp:
    """Factory for ``--impl python:broken_extend_no_clamp:create``."""
    return ExtendNoClamp()
