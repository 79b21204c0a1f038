"""Broken on purpose: a plugin skipped for several failed setups names the one that failed first.

The cause of a ``skipped`` event is the failed plugin it depends on that comes first in
setup order, where HOST-LIFE-5 asks for the one first in load order.

Breaks: HOST-LIFE-5
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.host import EventKind, HostEngine, HostObservation
from reference_impl.host_commands import HostCommand, Start
from reference_impl.lifecycle import run_setup


class CauseInSetupOrder(HostEngine):
    """The reference host, except for the cause of a plugin skipped at setup."""

    def apply(self, command: HostCommand) -> HostObservation:
        """Apply as the reference does; after a start, name causes by setup order (the bug)."""
        before = self._state
        observation = super().apply(command)
        if not isinstance(command, Start) or before.load is None:
            return observation
        order = before.plan.setup_order
        causes = {o.module_name: o.cause
                  for o in run_setup(order, before.plan.dependencies, before.load.behaviour.setup_fails, order)}
        events = tuple(replace(e, cause=causes.get(e.module_name, e.cause)) if e.kind is EventKind.SKIPPED else e
                       for e in observation.events)
        return replace(observation, events=events)


def create() -> CauseInSetupOrder:
    """Factory for ``--impl python:single_host_cause_in_setup_order:create``."""
    return CauseInSetupOrder(name="host-broken-cause-in-setup-order")
