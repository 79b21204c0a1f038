"""Broken on purpose: a command-line value ``module.key=value`` is split at its last ``=``.

``--set weather.url=https://x/?a=b`` sets a key named ``url=https://x/?a`` to ``b``
instead of ``url`` to ``https://x/?a=b``; values without a second ``=`` are read right.

Breaks: HOST-CFG-7
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.host import REFERENCE_RULES, HostEngine
from reference_impl.host_config import READING


def split_at_last(text: str) -> tuple[str, str, str]:
    """``text`` split at its last ``=`` (the bug)."""
    return text.rpartition("=") if "=" in text else (text, "", "")


def create() -> HostEngine:
    """Factory for ``--impl python:single_host_set_split_at_last_equals:create``."""
    rules = replace(REFERENCE_RULES, reading=replace(READING, split=split_at_last))
    return HostEngine(rules=rules, name="host-broken-set-split-at-last-equals")
