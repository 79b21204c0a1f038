"""Broken on purpose: during a plugin's last visible run, activate_plugin says already_active.

The implementation checks "is it shown as active in this run" instead of the stored
counter, which is already 0 then (breaks ACT-ACTIVATE-7).

Breaks: ACT-ACTIVATE-7
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import Activate, CallObservation, Event, Observation, RunObservation, StartRun
from reference_impl.model import HostConfig, Manifest, OutcomeKind, PluginState
from reference_impl.render import render_reply


class ReactivateLastRun(Engine):
    """The reference, except for activation during the last visible run."""

    info = replace(Engine.info, name="broken-reactivate-last-run")

    def __init__(self) -> None:
        super().__init__()
        self._shown_active: dict[str, set[str]] = {}

    def start(self, manifests: tuple[Manifest, ...], host: HostConfig) -> None:
        """Start afresh, forgetting which plugins are shown as active."""
        super().start(manifests, host)
        self._shown_active = {}

    def apply(self, event: Event) -> Observation:
        """Answer already_active, storing nothing, where the reference re-activates a plugin shown active
        in this run (its last visible run); else as the reference."""
        before = self._state
        observation = super().apply(event)
        if (isinstance(event, Activate) and isinstance(observation, CallObservation)
                and observation.outcome is OutcomeKind.ACTIVATED
                and event.module_name in self._shown_active.get(event.conversation, set())):
            self._state = before
            reply = CallObservation(outcome=OutcomeKind.ALREADY_ACTIVE, module_name=event.module_name,
                                    rounds=before.counters_of(event.conversation).get(event.module_name, 0),
                                    ends_step=True)
            return replace(reply, text=render_reply(self._catalogue.manifests, event, reply))
        if isinstance(event, StartRun) and isinstance(observation, RunObservation):
            self._shown_active[event.conversation] = {
                v.module_name for v in observation.plugins if v.state is PluginState.ACTIVE}
        return observation


def create() -> ReactivateLastRun:
    """Factory for ``--impl python:broken_reactivate_last_run:create``."""
    return ReactivateLastRun()
