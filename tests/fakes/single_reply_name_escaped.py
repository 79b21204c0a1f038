"""Broken on purpose: the called name is XML-escaped in reply sentences.

The implementation runs every value it writes through its XML escaper, reply sentences
included: a not-found reply for ``<b>&"it's"</b>`` says ``&lt;b&gt;&amp;"it's"&lt;/b&gt;``.
Blocks are right.

Breaks: TXT-REPLY-9
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import Activate, CallObservation, Event, Extend, Observation
from reference_impl.render import escape


class ReplyNameEscaped(Engine):
    """The reference, except that the name in a sentence is escaped."""

    info = replace(Engine.info, name="broken-reply-name-escaped")

    def apply(self, event: Event) -> Observation:
        """Apply as the reference does, then escape the called name where the sentence quotes it."""
        observation = super().apply(event)
        if (isinstance(event, (Activate, Extend)) and isinstance(observation, CallObservation)
                and observation.text is not None):
            quoted = f"`{event.module_name}`"
            return replace(observation, text=observation.text.replace(quoted, f"`{escape(event.module_name)}`", 1))
        return observation


def create() -> ReplyNameEscaped:
    """Factory for ``--impl python:single_reply_name_escaped:create``."""
    return ReplyNameEscaped()
