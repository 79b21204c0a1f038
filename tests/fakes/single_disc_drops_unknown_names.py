"""Broken on purpose: a load's answer says nothing about the names the catalogue lacks.

Unknown names are dropped silently, as the Vercel AI SDK does with a custom search's
answer: the model never learns which name was wrong.

Breaks: DISC-LOAD-4
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.disclosure_answers import LoadAnswer, LoadOutcome, StepObservation
from reference_impl.engine import Engine


class DropsUnknownNames(Engine):
    """The reference, except that load and unload answers leave out the not_found names."""

    info = replace(Engine.info, name="broken-disc-drops-unknown-names")

    def apply(self, event):  # type: ignore[no-untyped-def]
        """Apply as the reference does, then drop every not_found result."""
        observation = super().apply(event)
        if not isinstance(observation, StepObservation):
            return observation
        answers = tuple(replace(a, results=tuple(r for r in a.results if r[1] is not LoadOutcome.NOT_FOUND))
                        if isinstance(a, LoadAnswer) else a for a in observation.answers)
        return replace(observation, answers=answers)


def create() -> DropsUnknownNames:
    """Factory for ``--impl python:single_disc_drops_unknown_names:create``."""
    return DropsUnknownNames()
