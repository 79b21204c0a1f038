"""Broken on purpose: environment variables are recognised by a ``PAS__`` prefix in any case.

``pas__weather__units`` and ``Pas__Weather__Units`` are read as PAS variables, although
only names beginning with ``PAS__`` exactly are.

Breaks: HOST-CFG-5
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from reference_impl.host import REFERENCE_RULES, HostEngine
from reference_impl.host_config import ENV_PREFIX, READING


def any_case(environment: Mapping[str, str]) -> list[str]:
    """The variables whose name starts with ``PAS__`` ignoring case, in name order (the bug)."""
    return sorted(name for name in environment if name.upper().startswith(ENV_PREFIX))


def create() -> HostEngine:
    """Factory for ``--impl python:single_host_env_prefix_any_case:create``."""
    rules = replace(REFERENCE_RULES, reading=replace(READING, variables=any_case))
    return HostEngine(rules=rules, name="host-broken-env-prefix-any-case")
