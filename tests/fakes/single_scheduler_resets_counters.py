"""Broken on purpose: switching the scheduler back on forgets every stored counter.

The implementation clears its counter store when the scheduler is enabled again, instead of
resuming each counter at the value it had when the scheduler was switched off; a plugin
activated before the switch sleeps afterwards.

Breaks: ACT-SCHED-3
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import Event, Observation, SetScheduler
from reference_impl.scheduler import SchedulerState


class SchedulerResetsCounters(Engine):
    """The reference, except that ``set_scheduler: true`` drops every stored counter."""

    info = replace(Engine.info, name="broken-scheduler-resets-counters")

    def apply(self, event: Event) -> Observation:
        """Apply as the reference does; after enabling the scheduler, forget the counters."""
        observation = super().apply(event)
        if isinstance(event, SetScheduler) and event.enabled is True:
            self._state = SchedulerState(host=self._state.host)
        return observation


def create() -> SchedulerResetsCounters:
    """Factory for ``--impl python:single_scheduler_resets_counters:create``."""
    return SchedulerResetsCounters()
