"""Broken on purpose: ``allow_sleep: false`` is read like ``null`` (a truthiness check).

A protected plugin with a brief then sleeps under the admin ``allow_sleep`` strategy
(breaks ACT-ELIG-1: protection beats every admin strategy).

Breaks: ACT-ELIG-1
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from reference_impl.engine import Engine
from reference_impl.model import HostConfig, Manifest


class IgnoresProtected(Engine):
    """The reference, except that it forgets which plugins are protected."""

    info = replace(Engine.info, name="broken-ignores-protected")

    def start(self, manifests: Iterable[Manifest], host: HostConfig) -> None:
        """Install the manifests with ``allow_sleep: false`` turned into ``null``."""
        super().start([replace(m, allow_sleep=None) if m.allow_sleep is False else m for m in manifests], host)


def create() -> IgnoresProtected:
    """Factory for ``--impl python:broken_ignores_protected:create``."""
    return IgnoresProtected()
