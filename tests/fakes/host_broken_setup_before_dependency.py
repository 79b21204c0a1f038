"""Broken on purpose: plugins are set up in load order, ignoring their dependencies.

A plugin listed before the plugin it depends on is set up first and would read an empty
instance (seed 003 §5.1's pitfall). Violates HOST-LIFE-1.

Breaks: HOST-LIFE-1
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from reference_impl.host import REFERENCE_RULES, HostEngine
from reference_impl.lifecycle import setup_order


def load_order_setup(order: Sequence[str], dependencies: Mapping[str, Sequence[str]],
                     exclude: frozenset[str]) -> tuple[str, ...]:
    """The plugins the reference would set up, but in plain load order (the bug)."""
    chosen = set(setup_order(order, dependencies, exclude))
    return tuple(name for name in order if name in chosen)


def create() -> HostEngine:
    """Factory for ``--impl python:host_broken_setup_before_dependency:create``."""
    return HostEngine(rules=replace(REFERENCE_RULES, setup_order=load_order_setup),
                      name="host-broken-setup-before-dependency")
