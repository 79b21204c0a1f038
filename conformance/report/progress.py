"""One line of progress for ``pas run`` on a terminal: done/total, failures so far, time left.

``pas run: 120/204 scenarios, 3 failed, ~2 s left`` (see
:class:`~conformance.documents.progress_line.ProgressLine` for when and how it is drawn; never
with ``--quiet``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

from conformance.documents.progress_line import ProgressLine
from conformance.suite.results import BAD_OUTCOMES, ScenarioResult


class RunProgress(ProgressLine):
    """The ``pas run`` line: scenarios done, failures so far, time left (``max_time`` caps it)."""

    def __init__(self, stream: TextIO, *, total: int, max_time: float | None = None, enabled: bool | None = None,
                 interval: float = 0.2, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(stream, total=total, budget=max_time, enabled=enabled, interval=interval, clock=clock)
        self.done = self.bad = 0

    def line(self) -> str:
        """The text of the line for the counts so far (no terminal control characters)."""
        left = self.time_left(self.done)
        eta = f", ~{left:.0f} s left" if left is not None else ""
        return f"pas run: {self.done}/{self._total} scenarios, {self.bad} failed{eta}"

    def update(self, result: ScenarioResult) -> None:
        """Count ``result`` and redraw when enough time has passed (always after the last one)."""
        self.done += 1
        self.bad += result.outcome in BAD_OUTCOMES
        self.draw(self.line, now=self.done >= self._total)
