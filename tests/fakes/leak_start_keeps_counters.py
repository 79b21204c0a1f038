"""Broken on purpose: ``start`` keeps the activation counters of the scenario before.

Every scenario begins with ``start``, which must begin with empty state; this implementation
replaces the plugins and the host config but keeps the stored counters. Each scenario run alone
(or first) is answered exactly as the reference answers it; one that follows a scenario which
left a plugin active in a conversation shows that plugin active again, if it is installed under
the same module name. No single case shows it: ``pas fuzz`` must report the sequence of cases that
does.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.model import HostConfig, Manifest


class StartKeepsCounters(Engine):
    """The reference, except that ``start`` forgets everything but the counters (the bug)."""

    info = replace(Engine.info, name="leak-start-keeps-counters")

    def start(self, manifests: Iterable[Manifest], host: HostConfig) -> None:
        """Install the plugins and the host config, keeping the earlier counters."""
        kept = self._state.counters
        super().start(manifests, host)
        self._state = replace(self._state, counters=kept)


def create() -> StartKeepsCounters:
    """Factory for ``--impl python:leak_start_keeps_counters:create``."""
    return StartKeepsCounters()
