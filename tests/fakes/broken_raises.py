"""Broken on purpose (hostile): a KeyError escapes for calls naming an unknown plugin.

The implementation looks the plugin up with ``plugins[module_name]`` before checking that
it exists, so activate_plugin("nope") raises instead of answering not_found. The runner
must record ``errored`` and carry on.
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import Activate, Event, Extend, Observation


class RaisesOnUnknown(Engine):
    """The reference, except that calls for unknown plugins raise KeyError."""

    info = replace(Engine.info, name="broken-raises")

    def apply(self, event: Event) -> Observation:
        """Raise KeyError for a call naming an uninstalled plugin; else as the reference."""
        if isinstance(event, (Activate, Extend)):
            _ = self._catalogue.manifests[event.module_name].brief  # the bug: looked up before checking it exists
        return super().apply(event)


def create() -> RaisesOnUnknown:
    """Factory for ``--impl python:broken_raises:create``."""
    return RaisesOnUnknown()
