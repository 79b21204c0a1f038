"""Broken on purpose: an exception in one hook subscriber stops the dispatch.

The subscribers after the one that raised are never called (the seed's minimal skeleton,
without its recommended try/except). Violates HOST-HOOK-2.

Breaks: HOST-HOOK-2
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from reference_impl.host import REFERENCE_RULES, HostEngine


def run_until_error(subscribers: Sequence[str], raises: Callable[[str], bool]) -> tuple[tuple[str, bool], ...]:
    """Call subscribers in order and stop at the first that raises (the bug)."""
    calls = []
    for name in subscribers:
        calls.append((name, raises(name)))
        if calls[-1][1]:
            break
    return tuple(calls)


def create() -> HostEngine:
    """Factory for ``--impl python:host_broken_hook_stops:create``."""
    return HostEngine(rules=replace(REFERENCE_RULES, run_hooks=run_until_error), name="host-broken-hook-stops")
