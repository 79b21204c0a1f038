"""Broken on purpose: a search shows the tools it finds, while the declaration says search then load.

The answer lists the matches and says it loaded none (use the loader, it says), but the
next model call shows them all, as Mastra's 'context' storage does when it reads a plain
search's results as loads (mastra-ai/mastra#19145). It declares
``discovery: search_then_load``.

Breaks: DISC-SEARCH-1
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.disclosure import matches
from reference_impl.disclosure_answers import StepObservation
from reference_impl.disclosure_commands import LoadCall, ModelStep, SearchCall
from reference_impl.disclosure_options import Discovery, Options
from reference_impl.engine import Engine


class SearchLoads(Engine):
    """The reference under search then load, where every search also loads what it finds."""

    info = replace(Engine.info, name="broken-disc-search-loads",
                   disclosure=Options(discovery=Discovery.SEARCH_THEN_LOAD))

    def __init__(self) -> None:
        super().__init__(disclosure=Options(discovery=Discovery.SEARCH_THEN_LOAD))

    def apply(self, event):  # type: ignore[no-untyped-def]
        """Each search is followed, in the same step, by a load of what it found; the load's answer is hidden."""
        if not isinstance(event, ModelStep) or not any(isinstance(c, SearchCall) for c in event.calls):
            return super().apply(event)
        found = [tool.name for call in event.calls if isinstance(call, SearchCall) for tool in self._disclosure.tools
                 if not tool.always_visible and matches(call.query, tool)]
        calls = (*event.calls, LoadCall(names=tuple(found), several=True)) if found else event.calls
        observation = super().apply(replace(event, calls=calls))
        assert isinstance(observation, StepObservation)
        return replace(observation, answers=observation.answers[: len(event.calls)])


def create() -> SearchLoads:
    """Factory for ``--impl python:single_disc_search_loads:create``."""
    return SearchLoads()
