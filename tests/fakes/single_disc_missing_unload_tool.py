"""Broken on purpose: the declaration says the model may unload, but no model call offers the unload tool.

Every tool list lacks ``@unload`` while ``unload: [model]`` (the default) is declared: the
declaration and what the model is given disagree, whatever a scenario's steps state.

Breaks: DISC-CAT-3
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.disclosure_answers import StepObservation, ToolsObservation
from reference_impl.engine import Engine


class MissingUnloadTool(Engine):
    """The reference, except that ``@unload`` is left out of every tool list."""

    info = replace(Engine.info, name="broken-disc-missing-unload-tool")

    def apply(self, event):  # type: ignore[no-untyped-def]
        """Apply as the reference does, then drop the unload tool from the tool list."""
        observation = super().apply(event)
        if isinstance(observation, (ToolsObservation, StepObservation)):
            return replace(observation, tools=tuple(t for t in observation.tools if t != "@unload"))
        return observation


def create() -> MissingUnloadTool:
    """Factory for ``--impl python:single_disc_missing_unload_tool:create``."""
    return MissingUnloadTool()
