"""Broken on purpose: provenance keeps the values a higher layer replaced.

The host records provenance for every value any layer wrote and never forgets one: after
``--set weather.api=3`` replaced the mapping ``api``, it still reports where
``/api/timeout_s`` and ``/api/retries`` came from, values the plugin no longer receives.

Breaks: HOST-CFG-8
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.host import HostEngine, HostObservation
from reference_impl.host_commands import HostCommand, ReadConfig
from reference_impl.host_config import Layer, MergedConfig, Provenance, defaults_layer, file_layer, leaves
from reference_impl.problems import pointer_of


class StaleProvenance(HostEngine):
    """The reference host, except that a configuration's provenance also names replaced default and file values."""

    def apply(self, command: HostCommand) -> HostObservation:
        """Apply as the reference does; add provenance for the replaced values of the two lower layers."""
        observation = super().apply(command)
        load = self._state.load
        if not isinstance(command, ReadConfig) or observation.config is None or load is None:
            return observation
        installed = [m.module_name for m in load.plugins]
        lower = [(Layer.DEFAULTS, defaults_layer(load.plugins)), (Layer.FILE, file_layer(load.host, installed)[0])]
        written = dict(observation.config.provenance)
        for layer, assignments in lower:
            for a in assignments:
                if a.module_name == command.module_name:
                    for path, _ in leaves(a.value, a.path):
                        written.setdefault(pointer_of(path), Provenance(layer=layer, origin=a.origin))
        config = MergedConfig(value=observation.config.value, provenance=written)
        return replace(observation, config=config)


def create() -> StaleProvenance:
    """Factory for ``--impl python:single_host_stale_provenance:create``."""
    return StaleProvenance(name="host-broken-stale-provenance")
