"""The SVG badge of a run (``pas run --format badge-svg``); see :mod:`conformance.report.badge`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conformance.report.badge import badge_of_run, svg

if TYPE_CHECKING:
    from conformance.suite.results import RunResult


def render(run: RunResult, *, color: bool = False) -> str:
    """A self-contained SVG badge of ``run``; ``color`` (terminal colour) is ignored."""
    return svg(badge_of_run(run))
