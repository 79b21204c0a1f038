"""Broken on purpose: briefs are trimmed with JavaScript's ``String.prototype.trim``.

JavaScript's trim removes U+FEFF ZERO WIDTH NO-BREAK SPACE, which is not White_Space, and
keeps U+0085 NEXT LINE, which is: a brief of U+0085 alone counts as a brief (the plugin
sleeps and shows the model an invisible summary), and one of U+FEFF alone counts as none.
Everything else is the reference.

Breaks: ACT-ELIG-6
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.model import WHITE_SPACE, HostConfig, Manifest

#: What ECMAScript's trim removes: WhiteSpace (with U+FEFF) and LineTerminator, without U+0085.
JS_TRIMMED = WHITE_SPACE.replace("\u0085", "") + "\ufeff"


class JsTrimmedManifest(Manifest):
    """A manifest whose brief is trimmed as JavaScript trims (the bug)."""

    @property
    def brief(self) -> str:
        """The sleep brief with what ``String.prototype.trim`` removes removed."""
        return self.sleep_brief.strip(JS_TRIMMED)


def js_trimmed(manifest: Manifest) -> Manifest:
    """``manifest`` as a :class:`JsTrimmedManifest`."""
    return JsTrimmedManifest(**{f.name: getattr(manifest, f.name) for f in dataclasses.fields(Manifest)})


class BriefJsTrim(Engine):
    """The reference, except that briefs are trimmed as JavaScript trims them."""

    info = replace(Engine.info, name="broken-brief-js-trim")

    def start(self, manifests: Iterable[Manifest], host: HostConfig) -> None:
        """Install the manifests with JavaScript's trim."""
        super().start([js_trimmed(m) for m in manifests], host)


def create() -> BriefJsTrim:
    """Factory for ``--impl python:single_brief_js_trim:create``."""
    return BriefJsTrim()
