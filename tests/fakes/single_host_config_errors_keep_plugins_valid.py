"""Broken on purpose: only validation errors make a plugin invalid, not environment errors.

An ``env-ambiguous-key`` or ``env-ambiguous-plugin`` error is reported, but the plugins it
names are set up all the same, with a configuration nobody meant.

Breaks: HOST-VAL-5
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.host import REFERENCE_RULES, HostEngine
from reference_impl.lifecycle import makes_invalid
from reference_impl.problems import Problem


def validation_errors_only(problem: Problem) -> bool:
    """Whether ``problem`` makes its plugins invalid: not when it is about the environment (the bug)."""
    return makes_invalid(problem) and not problem.code.startswith("env-")


def create() -> HostEngine:
    """Factory for ``--impl python:single_host_config_errors_keep_plugins_valid:create``."""
    rules = replace(REFERENCE_RULES, invalidates=validation_errors_only)
    return HostEngine(rules=rules, name="host-broken-config-errors-keep-plugins-valid")
