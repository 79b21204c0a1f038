"""Broken on purpose: plugins are stopped and torn down in load order, not in reverse.

A plugin is torn down while plugins that depend on it are still running. Violates
HOST-LIFE-2 (exact reverse of the start order).

Breaks: HOST-LIFE-2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from reference_impl.host import REFERENCE_RULES, HostEngine


def load_order_shutdown(done: Sequence[str], load: Sequence[str]) -> tuple[str, ...]:
    """The started plugins in load order (the bug: not the reverse of the start order)."""
    started = set(done)
    return tuple(name for name in load if name in started)


def create() -> HostEngine:
    """Factory for ``--impl python:host_broken_teardown_in_load_order:create``."""
    return HostEngine(rules=replace(REFERENCE_RULES, shutdown_order=load_order_shutdown),
                      name="host-broken-teardown-in-load-order")
