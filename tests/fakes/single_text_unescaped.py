"""Broken on purpose: block text is written without XML escaping.

Names, briefs and method descriptions holding `&`, `<`, `>` or `"` appear raw in the
plugin blocks (and the runtime contexts) of a run, which breaks the markup the model reads.
The structured view is right; only the text profile is wrong.

Breaks: TXT-BLOCK-2
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import Event, Observation, RunObservation

_UNESCAPE = (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&#39;", "'"), ("&amp;", "&"))


def unescape(text: str) -> str:
    """``text`` with the XML escapes the reference writes undone (the bug)."""
    for escaped, raw in _UNESCAPE:
        text = text.replace(escaped, raw)
    return text


class TextUnescaped(Engine):
    """The reference, except that a run's text is not XML-escaped."""

    info = replace(Engine.info, name="broken-text-unescaped")

    def apply(self, event: Event) -> Observation:
        """Apply as the reference does, then undo the escaping of a run's text."""
        observation = super().apply(event)
        if isinstance(observation, RunObservation) and observation.text is not None:
            return replace(observation, text=unescape(observation.text))
        return observation


def create() -> TextUnescaped:
    """Factory for ``--impl python:single_text_unescaped:create``."""
    return TextUnescaped()
