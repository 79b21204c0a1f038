"""Reporters: turn a :class:`~conformance.suite.results.RunResult` into text for people or tools.

Each format is a module here with ``render(run, *, color=False) -> str``:
``text`` (people; colour on a terminal), ``json`` (JSON lines), ``junit`` (JUnit XML),
``markdown`` (a summary table and the failures, e.g. for a CI job summary).
"""

from __future__ import annotations

import importlib
import os
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:  # keep ``import conformance.report.<other>`` light
    from conformance.suite.results import RunResult

FORMATS = ("text", "json", "junit", "markdown", "badge", "badge-svg")
_MODULES = {
    "text": "text", "json": "jsonl", "junit": "junit", "markdown": "markdown", "badge": "badge", "badge-svg": "badge_svg",
}


def render(run: RunResult, fmt: str, *, color: bool = False) -> str:
    """The report of ``run`` in format ``fmt`` (one of FORMATS); raises KeyError for others."""
    module: Any = importlib.import_module(f"conformance.report.{_MODULES[fmt]}")
    return module.render(run, color=color)


def use_color(stream: IO[str]) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set to anything (no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
