"""Broken on purpose: a load answers ``loaded`` but the next model call of the request does not show the tool.

The state keeps the load (the next request shows it); only the request that asked for it
goes on without it, so the model calls a tool it was just told it has.

Breaks: DISC-LOAD-1
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.disclosure_answers import LoadAnswer, LoadOutcome, StepObservation
from reference_impl.engine import Engine


class LoadNotShown(Engine):
    """The reference, except that a model step's next tool list leaves out what the step loaded."""

    info = replace(Engine.info, name="broken-disc-load-not-shown")

    def apply(self, event):  # type: ignore[no-untyped-def]
        """Apply as the reference does, then drop this step's loads from the next tool list."""
        observation = super().apply(event)
        if not isinstance(observation, StepObservation):
            return observation
        loaded = {name for answer in observation.answers if isinstance(answer, LoadAnswer) and answer.call == "load"
                  for name, outcome in answer.results if outcome is LoadOutcome.LOADED}
        return replace(observation, tools=tuple(t for t in observation.tools if t not in loaded))


def create() -> LoadNotShown:
    """Factory for ``--impl python:single_disc_load_not_shown:create``."""
    return LoadNotShown()
