"""Broken on purpose: config layers are merged shallowly (seed 003 §5.2's pitfall).

A higher layer's top-level key replaces the lower layer's whole value, so setting
``api.timeout_s`` in the host config file silently drops the default ``api.retries``.
Violates HOST-CFG-2 (deep merge).

Breaks: HOST-CFG-2
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from reference_impl.frozen import thaw
from reference_impl.host import REFERENCE_RULES, HostEngine


def shallow_merge(base: Any, overlay: Any) -> Any:
    """Top-level keys of ``overlay`` replace those of ``base`` wholesale (the bug)."""
    if isinstance(base, dict) and isinstance(overlay, dict):
        return {**thaw(base), **thaw(overlay)}
    return thaw(overlay)


def create() -> HostEngine:
    """Factory for ``--impl python:host_broken_shallow_merge:create``."""
    return HostEngine(rules=replace(REFERENCE_RULES, merge=shallow_merge), name="host-broken-shallow-merge")
