"""Broken on purpose: the run in which a plugin is activated already counts as one of its runs.

activate_plugin(m, 3) stores 2 instead of 3, so the plugin is visible for 2 runs, not 3
(the activation run does not count).

Breaks: ACT-COUNT-3
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import Activate, Event, Observation
from reference_impl.model import OutcomeKind


class CountsActivationRun(Engine):
    """The reference, except that activation decrements the new counter at once."""

    info = replace(Engine.info, name="broken-counts-activation-run")

    def apply(self, event: Event) -> Observation:
        """Apply as the reference does, then count the current run against the activation."""
        observation = super().apply(event)
        if isinstance(event, Activate) and observation.outcome is OutcomeKind.ACTIVATED:
            counters = dict(self._state.counters_of(event.conversation))
            counters[event.module_name] -= 1
            kept = {name: rounds for name, rounds in counters.items() if rounds > 0}
            self._state = self._state.with_counters(event.conversation, kept)
        return observation


def create() -> CountsActivationRun:
    """Factory for ``--impl python:broken_counts_activation_run:create``."""
    return CountsActivationRun()
