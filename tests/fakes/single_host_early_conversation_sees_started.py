"""Broken on purpose: a conversation opened before the start calls the plugins started later.

A hook dispatched in a conversation calls every started subscriber, at its current
generation, when the conversation keeps no instance of it: a conversation opened before
``host-start`` reaches plugins it never had, and after a reload, their new instances.

Breaks: HOST-HOOK-3
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.host import EventKind, HostEngine, HostObservation, LifecycleEvent
from reference_impl.host_commands import Dispatch, HostCommand


class EarlyConversationSeesStarted(HostEngine):
    """The reference host, except for hooks dispatched in a conversation missing some started plugins."""

    def apply(self, command: HostCommand) -> HostObservation:
        """Apply as the reference does; in a conversation, call the started subscribers it lacks too (the bug)."""
        observation = super().apply(command)
        state = self._state
        if not isinstance(command, Dispatch) or not command.conversation or state.load is None:
            return observation
        kept = state.conversations.get(command.conversation, {})
        missing = [n for n in state.plan.load_order
                   if n in state.started and command.hook in state.plan.hooks[n] and n not in kept]
        if not missing:
            return observation
        calls = [LifecycleEvent(kind=EventKind.HOOK_FAILED if state.load.behaviour.raises(n, command.hook)
                                else EventKind.HOOK_CALLED, module_name=n, hook=command.hook,
                                conversation=command.conversation, generation=state.generations[n])
                 for n in missing]
        called = [e for e in observation.events if e.kind in (EventKind.HOOK_CALLED, EventKind.HOOK_FAILED)]
        opened = [e for e in observation.events if e.kind is EventKind.CONVERSATION_OPENED]
        order = state.plan.load_order
        return replace(observation, events=(*opened, *sorted([*called, *calls], key=lambda e: order.index(e.module_name))))


def create() -> EarlyConversationSeesStarted:
    """Factory for ``--impl python:single_host_early_conversation_sees_started:create``."""
    return EarlyConversationSeesStarted(name="host-broken-early-conversation-sees-started")
