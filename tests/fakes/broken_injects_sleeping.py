"""Broken on purpose: prompt injection is called for sleeping plugins too.

Injection runs for every plugin that injects, whatever its state
(a sleeping plugin's injection is never called).

Breaks: ACT-STATE-4
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import Event, Observation, RunObservation
from reference_impl.model import PluginState


class InjectsSleeping(Engine):
    """The reference, except that sleeping plugins' injections run."""

    info = replace(Engine.info, name="broken-injects-sleeping")

    def apply(self, event: Event) -> Observation:
        """Apply as the reference does, then mark injection called for sleeping injectors."""
        observation = super().apply(event)
        if not isinstance(observation, RunObservation):
            return observation
        manifests = self._catalogue.manifests
        views = tuple(
            replace(v, injection_called=True)
            if v.state is PluginState.SLEEPING and manifests[v.module_name].injects_prompt else v
            for v in observation.plugins
        )
        return replace(observation, plugins=views)


def create() -> InjectsSleeping:
    """Factory for ``--impl python:broken_injects_sleeping:create``."""
    return InjectsSleeping()
