"""Broken on purpose: with the scheduler off, extend answers always_awake for any name.

While the scheduler is off every plugin is always awake, and this implementation
short-cuts ``extend_plugin_activation`` to always_awake before looking the plugin up: a
name nobody has, a disabled plugin or one not on the conversation's adapter is answered
always_awake instead of not_found.

Breaks: ACT-EXTEND-1
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import CallObservation, Event, Extend, Observation
from reference_impl.model import OutcomeKind
from reference_impl.render import render_reply
from reference_impl.scheduler import parse_rounds, scheduler_on


class SchedOffExtendUnknownAwake(Engine):
    """The reference, except for extend while the scheduler is off."""

    info = replace(Engine.info, name="broken-sched-off-extend-unknown-awake")

    def apply(self, event: Event) -> Observation:
        """With the scheduler off, answer a valid extend always_awake whatever it names (the bug)."""
        if (isinstance(event, Extend) and not scheduler_on(self._state.host, self._semantics)
                and parse_rounds(event.rounds, self._semantics) is not None):
            reply = CallObservation(outcome=OutcomeKind.ALWAYS_AWAKE, module_name=event.module_name, ends_step=False)
            return replace(reply, text=render_reply(self._catalogue.manifests, event, reply))
        return super().apply(event)


def create() -> SchedOffExtendUnknownAwake:
    """Factory for ``--impl python:single_sched_off_extend_unknown_awake:create``."""
    return SchedOffExtendUnknownAwake()
