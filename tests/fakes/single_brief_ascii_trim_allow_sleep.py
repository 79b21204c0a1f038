"""Broken on purpose: under the allow_sleep strategy, a brief is trimmed of ASCII white space only.

The implementation decides ``auto`` plugins right, but its branch for the admin's
``allow_sleep`` strategy checks the brief with an ASCII trim: a brief of U+3000 IDEOGRAPHIC
SPACE alone counts as a brief there, so the plugin sleeps and the model is shown an empty
summary.

Breaks: ACT-ELIG-6
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.model import HostConfig, Manifest, Strategy

ASCII_WHITE_SPACE = " \t\n\r\v\f"


class AsciiTrimmedManifest(Manifest):
    """A manifest whose brief is trimmed of ASCII white space only (the bug)."""

    @property
    def brief(self) -> str:
        """The sleep brief without surrounding ASCII white space."""
        return self.sleep_brief.strip(ASCII_WHITE_SPACE)


class BriefAsciiTrimAllowSleep(Engine):
    """The reference, except for the briefs of plugins the host config gives the allow_sleep strategy."""

    info = replace(Engine.info, name="broken-brief-ascii-trim-allow-sleep")

    def start(self, manifests: Iterable[Manifest], host: HostConfig) -> None:
        """Install the manifests, those under allow_sleep with the ASCII trim."""
        def installed(manifest: Manifest) -> Manifest:
            if host.strategy_for(manifest.module_name) is not Strategy.ALLOW_SLEEP:
                return manifest
            return AsciiTrimmedManifest(**{f.name: getattr(manifest, f.name) for f in dataclasses.fields(Manifest)})

        super().start([installed(m) for m in manifests], host)


def create() -> BriefAsciiTrimAllowSleep:
    """Factory for ``--impl python:single_brief_ascii_trim_allow_sleep:create``."""
    return BriefAsciiTrimAllowSleep()
