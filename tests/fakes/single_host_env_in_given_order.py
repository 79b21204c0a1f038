"""Broken on purpose: environment variables are applied in the order the environment lists them.

Not in code-point order of their names: when two variables write the same path
(``PAS__M__API__HOST`` before ``PAS__M__API``), the result depends on the order the
process environment happens to have.

Breaks: HOST-CFG-5
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from reference_impl.host import REFERENCE_RULES, HostEngine
from reference_impl.host_config import ENV_PREFIX, READING


def as_given(environment: Mapping[str, str]) -> list[str]:
    """The ``PAS__`` variables in the environment's own order (the bug)."""
    return [name for name in environment if name.startswith(ENV_PREFIX)]


def create() -> HostEngine:
    """Factory for ``--impl python:single_host_env_in_given_order:create``."""
    rules = replace(REFERENCE_RULES, reading=replace(READING, variables=as_given))
    return HostEngine(rules=rules, name="host-broken-env-in-given-order")
