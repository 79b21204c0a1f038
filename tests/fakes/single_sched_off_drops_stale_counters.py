"""Broken on purpose: a run with the scheduler off still drops the counters that went stale.

While the scheduler is off, counters are frozen (ACT-SCHED-2): a run neither reads nor
changes them. This implementation counts nothing down while off, but still applies the
run-start clean-up of ACT-COUNT-5, dropping the counter of a plugin disabled, or made
ineligible by a strategy, in the meantime: undoing the change before the scheduler comes
back does not bring the activation back.

Breaks: ACT-SCHED-2
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.eligibility import is_sleep_eligible
from reference_impl.engine import Engine
from reference_impl.events import Event, Observation, StartRun
from reference_impl.scheduler import scheduler_on


class SchedOffDropsStaleCounters(Engine):
    """The reference, except that runs with the scheduler off drop stale counters."""

    info = replace(Engine.info, name="broken-sched-off-drops-stale-counters")

    def apply(self, event: Event) -> Observation:
        """Apply as the reference does; with the scheduler off, a run drops stale counters too."""
        observation = super().apply(event)
        state, semantics = self._state, self._semantics
        if isinstance(event, StartRun) and not scheduler_on(state.host, semantics):
            shown = {v.module_name for v in observation.plugins}
            manifests = self._catalogue.manifests
            kept = {m: n for m, n in state.counters_of(event.conversation).items()
                    if m in shown and is_sleep_eligible(manifests[m], state.host.strategy_for(m), semantics)}
            self._state = state.with_counters(event.conversation, kept)
        return observation


def create() -> SchedOffDropsStaleCounters:
    """Factory for ``--impl python:single_sched_off_drops_stale_counters:create``."""
    return SchedOffDropsStaleCounters()
