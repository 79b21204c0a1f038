"""Broken on purpose: one line feed after a block's opening tag instead of two.

Every ``<plugin ...>`` tag is followed by one line feed where the frame of TXT-LAYOUT-3
puts two; everything else, the activation reply's block included, is the reference's.

Breaks: TXT-LAYOUT-3
"""

from __future__ import annotations

import re
from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import CallObservation, Event, Observation, RunObservation

_OPEN_TAG = re.compile(r'(<plugin name="[^"]*" module_name="[^"]*" call_priority="auto" state="[a-z_]+"'
                       r'(?: rounds_left="\d+")?>)\n\n')


class OpenTagOneLineFeed(Engine):
    """The reference, except for the line feeds after the opening tag."""

    info = replace(Engine.info, name="broken-open-tag-one-line-feed")

    def apply(self, event: Event) -> Observation:
        """Apply as the reference does, then drop a line feed after each opening tag."""
        observation = super().apply(event)
        if isinstance(observation, (RunObservation, CallObservation)) and observation.text is not None:
            return replace(observation, text=_OPEN_TAG.sub(lambda m: m[1] + "\n", observation.text))
        return observation


def create() -> OpenTagOneLineFeed:
    """Factory for ``--impl python:single_open_tag_one_line_feed:create``."""
    return OpenTagOneLineFeed()
