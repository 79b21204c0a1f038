"""Broken on purpose: method descriptions are trimmed with Python's ``str.strip()``.

``str.strip()`` also removes U+001C..U+001F, which are not White_Space: a description that
starts or ends with one is shown without it. Briefs are trimmed as the reference does.

Breaks: TXT-LAYOUT-5
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.model import WHITE_SPACE, HostConfig, Manifest


def stripped(manifest: Manifest) -> Manifest:
    """``manifest`` with each non-blank description pre-trimmed by ``str.strip()`` (the bug)."""
    methods = tuple(replace(m, description=m.description.strip()) if m.description.strip(WHITE_SPACE) else m
                    for m in manifest.methods)
    return dataclasses.replace(manifest, methods=methods)


class MethodDescriptionStrStrip(Engine):
    """The reference, except for the trim of method descriptions."""

    info = replace(Engine.info, name="broken-method-description-str-strip")

    def start(self, manifests: Iterable[Manifest], host: HostConfig) -> None:
        """Install the manifests with their descriptions trimmed by ``str.strip()``."""
        super().start([stripped(m) for m in manifests], host)


def create() -> MethodDescriptionStrStrip:
    """Factory for ``--impl python:single_method_description_str_strip:create``."""
    return MethodDescriptionStrStrip()
