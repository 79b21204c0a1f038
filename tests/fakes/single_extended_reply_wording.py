"""Broken on purpose: the extended reply has its own wording.

extend_plugin_activation's reply says "Plugin `m` will stay visible for {n} more runs."
instead of "Plugin `m` visibility extended. {n} runs remain."; the outcome and the count
are right.

Breaks: TXT-REPLY-5
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import CallObservation, Event, Extend, Observation
from reference_impl.model import OutcomeKind


class ExtendedReplyWording(Engine):
    """The reference, except for the sentence of an extended reply."""

    info = replace(Engine.info, name="broken-extended-reply-wording")

    def apply(self, event: Event) -> Observation:
        """Apply as the reference does, then reword an extended reply."""
        observation = super().apply(event)
        if (isinstance(event, Extend) and isinstance(observation, CallObservation)
                and observation.outcome is OutcomeKind.EXTENDED and observation.text is not None):
            text = f"Plugin `{event.module_name}` will stay visible for {observation.rounds} more runs."
            return replace(observation, text=text)
        return observation


def create() -> ExtendedReplyWording:
    """Factory for ``--impl python:single_extended_reply_wording:create``."""
    return ExtendedReplyWording()
