"""Broken on purpose: reply sentences say "1 run" for one run.

The activated, already-active and extended sentences are written grammatically ("for the
next 1 run", "with 1 run remaining", "1 run remains") instead of with the fixed word
"runs" whatever the number; the outcomes and counts are right.

Breaks: TXT-REPLY-8
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import CallObservation, Event, Observation

SINGULAR = (("for the next 1 runs.", "for the next 1 run."), ("with 1 runs remaining.", "with 1 run remaining."),
            (" 1 runs remain.", " 1 run remains."))


class ReplyOneRun(Engine):
    """The reference, except for the sentences of a count of one."""

    info = replace(Engine.info, name="broken-reply-one-run")

    def apply(self, event: Event) -> Observation:
        """Apply as the reference does, then put a count of one in the singular (the bug)."""
        observation = super().apply(event)
        if isinstance(observation, CallObservation) and observation.text is not None and observation.rounds == 1:
            text = observation.text
            for plural, singular in SINGULAR:
                text = text.replace(plural, singular, 1)
            return replace(observation, text=text)
        return observation


def create() -> ReplyOneRun:
    """Factory for ``--impl python:single_reply_one_run:create``."""
    return ReplyOneRun()
