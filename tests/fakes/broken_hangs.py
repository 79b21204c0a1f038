"""Broken on purpose (hostile): a restart never returns (it waits for a lock nobody releases).

Only for the stdio adapter's timeout tests: in-process calls are not timed out, so running
this in-process hangs the run. Every other event behaves as in the reference.
"""

from __future__ import annotations

import threading
from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import Event, Observation, Restart


class HangsOnRestart(Engine):
    """The reference, except that ``restart`` blocks forever."""

    info = replace(Engine.info, name="broken-hangs")

    def apply(self, event: Event) -> Observation:
        """Block forever on a restart; else as the reference."""
        if isinstance(event, Restart):
            threading.Event().wait()
        return super().apply(event)


def create() -> HangsOnRestart:
    """Factory for ``--impl python:broken_hangs:create``."""
    return HangsOnRestart()
