"""Broken on purpose: environment and command-line values are parsed by Python's default ``json.loads``.

``json.loads`` accepts ``NaN``, ``Infinity`` and ``-Infinity``, which are not JSON: such a
value becomes a float instead of staying the string it was.

Breaks: HOST-CFG-5
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from reference_impl.host import REFERENCE_RULES, HostEngine
from reference_impl.host_config import READING


def lenient_json(text: str) -> Any:
    """``text`` as Python's json module reads it by default, else the string (the bug)."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def create() -> HostEngine:
    """Factory for ``--impl python:single_host_nan_parsed:create``."""
    rules = replace(REFERENCE_RULES, reading=replace(READING, parse=lenient_json))
    return HostEngine(rules=rules, name="host-broken-nan-parsed")
