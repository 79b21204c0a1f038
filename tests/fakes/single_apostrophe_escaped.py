"""Broken on purpose: attribute values are escaped as HTML escapers do, apostrophes included.

Block attributes (plugin names in ``<plugin>`` and ``<plugin_runtime_context>``) are
written with Python's ``html.escape``, which also turns ``'`` into ``&#x27;``: a plugin
named ``Bob's tool`` reads ``Bob&#x27;s tool``. Text values are escaped as the reference
does.

Breaks: TXT-BLOCK-7
"""

from __future__ import annotations

import re
from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import CallObservation, Event, Observation, RunObservation

_ATTRIBUTE = re.compile(r'( (?:name|module_name)=")([^"]*)(")')


def html_attributes(text: str) -> str:
    """``text`` with the apostrophes of its name attributes escaped (the bug)."""
    return _ATTRIBUTE.sub(lambda m: m[1] + m[2].replace("'", "&#x27;") + m[3], text)


class ApostropheEscaped(Engine):
    """The reference, except that apostrophes in attribute values are escaped."""

    info = replace(Engine.info, name="broken-apostrophe-escaped")

    def apply(self, event: Event) -> Observation:
        """Apply as the reference does, then escape the attributes' apostrophes."""
        observation = super().apply(event)
        if isinstance(observation, (RunObservation, CallObservation)) and observation.text is not None:
            return replace(observation, text=html_attributes(observation.text))
        return observation


def create() -> ApostropheEscaped:
    """Factory for ``--impl python:single_apostrophe_escaped:create``."""
    return ApostropheEscaped()
