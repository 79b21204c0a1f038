"""Broken on purpose: ``rounds`` is read into a 32-bit integer.

A ``rounds`` that does not fit a signed 32-bit integer (10000000000, 1e300, -1e300) is
rejected as invalid_argument instead of being clamped to 20 or 1; everything that fits is
the reference's.

Breaks: ACT-ARG-3
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import Activate, Event, Extend, Observation

INT32 = range(-(2**31), 2**31)


class RoundsInt32(Engine):
    """The reference, except that integers beyond 32 bits are not integers."""

    info = replace(Engine.info, name="broken-rounds-int32")

    def apply(self, event: Event) -> Observation:
        """Send a call whose integer rounds overflows 32 bits on as a non-integer (the bug)."""
        if isinstance(event, (Activate, Extend)):
            rounds = event.rounds
            if isinstance(rounds, float) and rounds.is_integer():
                rounds = int(rounds)
            if isinstance(rounds, int) and not isinstance(rounds, bool) and rounds not in INT32:
                event = replace(event, rounds=0.5)
        return super().apply(event)


def create() -> RoundsInt32:
    """Factory for ``--impl python:single_rounds_int32:create``."""
    return RoundsInt32()
