"""Broken on purpose: a method whose description is white space only gets no entry.

The implementation trims each description first and leaves out the methods whose trimmed
description is empty, instead of only those whose description is the empty string; the
structured view (``methods_shown``) is the reference's.

Breaks: TXT-LAYOUT-5
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.events import Event, Observation, RunObservation
from reference_impl.model import WHITE_SPACE
from reference_impl.render import method_entry


class BlankMethodDescriptionSkipped(Engine):
    """The reference, except that methods with blank descriptions are left out of the text."""

    info = replace(Engine.info, name="broken-blank-method-description-skipped")

    def apply(self, event: Event) -> Observation:
        """Apply as the reference does, then drop the entries of blank descriptions from a run's text."""
        observation = super().apply(event)
        if not isinstance(observation, RunObservation) or observation.text is None:
            return observation
        text = observation.text
        for manifest in self._catalogue.manifests.values():
            for method in manifest.methods:
                if method.description and not method.description.strip(WHITE_SPACE):
                    entry = method_entry(method)
                    text = text.replace(f"\n{entry}\n</predefined_methods>", "\n</predefined_methods>")
                    text = text.replace(f"\n<predefined_methods>\n{entry}\n</predefined_methods>\n", "")
                    text = text.replace(f"{entry}\n", "")
        return replace(observation, text=text)


def create() -> BlankMethodDescriptionSkipped:
    """Factory for ``--impl python:single_blank_method_description_skipped:create``."""
    return BlankMethodDescriptionSkipped()
