"""Broken on purpose: a run's blocks are sorted by module_name alone.

Always-awake plugins are not put first: every shown plugin is in one group by name, so a
sleeping `alpha` comes before an always-awake `basic`. The text follows that order.

Breaks: ACT-ORDER-1
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import Event, Observation, RunObservation
from reference_impl.render import render_run


class OrderByNameOnly(Engine):
    """The reference, except for the order of a run's blocks."""

    info = replace(Engine.info, name="broken-order-by-name-only")

    def apply(self, event: Event) -> Observation:
        """Apply as the reference does, then sort the run's views by module_name only."""
        observation = super().apply(event)
        if not isinstance(observation, RunObservation):
            return observation
        views = tuple(sorted(observation.plugins, key=lambda v: v.module_name))
        shown = replace(observation, plugins=views, text=None)
        text = render_run(self._catalogue.manifests, shown) if observation.text is not None else None
        return replace(shown, text=text)


def create() -> OrderByNameOnly:
    """Factory for ``--impl python:single_order_by_name_only:create``."""
    return OrderByNameOnly()
