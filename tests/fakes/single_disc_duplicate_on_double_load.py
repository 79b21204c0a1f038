"""Broken on purpose: loading a visible tool again answers ``already_loaded`` and lists it twice.

The next model call names the tool twice, as LangGraph bigtool's reducer does with a
retrieval that returns one id twice: a malformed request for some providers.

Breaks: DISC-LOAD-2
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.disclosure_answers import LoadAnswer, LoadOutcome, StepObservation
from reference_impl.engine import Engine


class DuplicateOnDoubleLoad(Engine):
    """The reference, except that a tool loaded again is appended to the next tool list a second time."""

    info = replace(Engine.info, name="broken-disc-duplicate-on-double-load")

    def apply(self, event):  # type: ignore[no-untyped-def]
        """Apply as the reference does, then repeat each tool a load answered already_loaded."""
        observation = super().apply(event)
        if not isinstance(observation, StepObservation):
            return observation
        again = [name for answer in observation.answers if isinstance(answer, LoadAnswer) and answer.call == "load"
                 for name, outcome in answer.results if outcome is LoadOutcome.ALREADY_LOADED]
        return replace(observation, tools=(*observation.tools, *again))


def create() -> DuplicateOnDoubleLoad:
    """Factory for ``--impl python:single_disc_duplicate_on_double_load:create``."""
    return DuplicateOnDoubleLoad()
