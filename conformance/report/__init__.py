"""Reporters: turn a :class:`~conformance.suite.results.RunResult` into text for people or tools.

Each format is a module here with ``render(run, *, color=False) -> str``:
``text`` (people; colour on a terminal), ``json`` (JSON lines), ``junit`` (JUnit XML),
``markdown`` (a summary table and the failures, e.g. for a CI job summary), ``ctrf`` (CTRF JSON,
which test-report actions read), ``badge`` (shields.io endpoint JSON) and ``badge-svg`` (the
badge drawn as SVG): :data:`FORMATS`, each through its module in ``_MODULES``.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:  # keep ``import conformance.report.<other>`` light
    from conformance.suite.results import RunResult

FORMATS = ("text", "json", "junit", "markdown", "ctrf", "badge", "badge-svg")
_MODULES = {
    "text": "text", "json": "jsonl", "junit": "junit", "markdown": "markdown", "ctrf": "ctrf", "badge": "badge",
    "badge-svg": "badge_svg",
}


def render(run: RunResult, fmt: str, *, color: bool = False) -> str:
    """The report of ``run`` in format ``fmt`` (one of FORMATS); raises KeyError for others."""
    module: Any = importlib.import_module(f"conformance.report.{_MODULES[fmt]}")
    return module.render(run, color=color)


def use_color(mode: str, stream: IO[str], environ: Mapping[str, str] | None = None) -> bool:
    """The one colour policy of every command's ``--color`` (``auto``, ``always``, ``never``).

    ``auto`` colours only a terminal, and never when NO_COLOR is set to anything (no-color.org)
    or TERM is ``dumb``; ``always`` and ``never`` are taken at their word.
    """
    if mode != "auto":
        return mode == "always"
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR") or environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
