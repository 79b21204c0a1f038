"""Broken on purpose: every run decrements every eligible plugin's counter, sleeping ones too.

A sleeping plugin's counter goes to -1, so extending it afterwards stores 2 instead of 3
(breaks ACT-COUNT-4 only active plugins count down, and ACT-EXTEND-5).

Breaks: ACT-COUNT-4
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import Event, Observation, RunObservation, StartRun
from reference_impl.model import PluginState


class DecrementsSleeping(Engine):
    """The reference, except that sleeping plugins get negative counters at each run."""

    info = replace(Engine.info, name="broken-decrements-sleeping")

    def apply(self, event: Event) -> Observation:
        """Apply as the reference does; after a run, decrement the sleeping plugins too.

        A run itself still shows only positive counters, as this implementation's display
        would (its bug is in the counting, not in showing): the reference, which never stores
        a counter below 1, is handed the run without the negative ones, which are kept.
        """
        if not isinstance(event, StartRun):
            return super().apply(event)
        stored = self._state.counters_of(event.conversation)
        negative = {name: n for name, n in stored.items() if n < 1}
        if negative:
            self._state = self._state.with_counters(
                event.conversation, {name: n for name, n in stored.items() if n >= 1})
        observation = super().apply(event)
        if isinstance(observation, RunObservation):
            counters = {**negative, **self._state.counters_of(event.conversation)}
            for view in observation.plugins:
                if view.state is PluginState.SLEEPING:
                    counters[view.module_name] = counters.get(view.module_name, 0) - 1
            self._state = self._state.with_counters(event.conversation, counters)
        return observation


def create() -> DecrementsSleeping:
    """Factory for ``--impl python:broken_decrements_sleeping:create``."""
    return DecrementsSleeping()
