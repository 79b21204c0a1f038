"""Broken on purpose: environment and command-line values are trimmed before they are read.

`` metric `` becomes ``metric``: a value that is not JSON is not kept as it was set.

Breaks: HOST-CFG-5
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from reference_impl.host import REFERENCE_RULES, HostEngine
from reference_impl.host_config import READING, parse_value


def trimmed(text: str) -> Any:
    """The value of ``text`` with its surrounding white space removed first (the bug)."""
    return parse_value(text.strip())


def create() -> HostEngine:
    """Factory for ``--impl python:single_host_env_values_trimmed:create``."""
    rules = replace(REFERENCE_RULES, reading=replace(READING, parse=trimmed))
    return HostEngine(rules=rules, name="host-broken-env-values-trimmed")
