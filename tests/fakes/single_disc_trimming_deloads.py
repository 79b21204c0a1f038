"""Broken on purpose: trimming a thread's history empties its loaded tools, while the declaration says thread scope.

Tools vanish with the trimmed messages and nobody tells the model, as Mastra's 'context'
storage does; the declaration says ``state_scope: thread`` (the default), whose loads
do not live in the history.

Breaks: DISC-TRIM-1
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.disclosure_commands import Trim
from reference_impl.engine import Engine


class TrimmingDeloads(Engine):
    """The reference, except that a trim forgets the trimmed thread's loads."""

    info = replace(Engine.info, name="broken-disc-trimming-deloads")

    def apply(self, event):  # type: ignore[no-untyped-def]
        """Apply as the reference does; after a trim, the thread keeps its history but not its loads."""
        observation = super().apply(event)
        if isinstance(event, Trim):
            state = self._disclosure
            self._disclosure = state.with_thread(event.thread, replace(state.thread(event.thread), loaded=()))
        return observation


def create() -> TrimmingDeloads:
    """Factory for ``--impl python:single_disc_trimming_deloads:create``."""
    return TrimmingDeloads()
