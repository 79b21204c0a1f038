"""One line of progress on a terminal, redrawn in place: what ``pas run`` and ``pas fuzz`` share.

Drawn on standard error only when it is a terminal (never in CI logs, pipes or files), at most
a few times a second. Hand-written: one line does not justify a dependency, and ``pas`` must
start fast. Each command says what the line reads (:mod:`conformance.report.progress`,
:mod:`conformance.fuzz.progress`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO


class ProgressLine:
    """Throttled in-place drawing of one line on ``stream`` when it is a terminal (or when ``enabled`` says so).

    ``total`` is how many items the command expects and ``budget`` its time limit in seconds
    (None: none); together they give the time left.
    """

    def __init__(self, stream: TextIO, *, total: int, budget: float | None = None, enabled: bool | None = None,
                 interval: float = 0.2, clock: Callable[[], float] = time.monotonic) -> None:
        if enabled is None:
            isatty = getattr(stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = enabled
        self._stream, self._total, self._budget = stream, total, budget
        self._interval, self._clock = interval, clock
        self._started = self._last_drawn = clock()  # the first line after one interval: early rates are noise
        self._width = 0

    def elapsed(self) -> float:
        """Seconds since the line was made."""
        return self._clock() - self._started

    def time_left(self, done: int) -> float | None:
        """Seconds left at the pace so far, capped by the budget; None when nothing says yet."""
        elapsed = self.elapsed()
        left = (self._total - done) * elapsed / done if done else None
        if self._budget is not None:
            budget_left = max(self._budget - elapsed, 0.0)
            left = budget_left if left is None else min(left, budget_left)
        return left

    def draw(self, text: Callable[[], str], *, now: bool = False) -> None:
        """Redraw with ``text()`` if enabled and an interval has passed (or ``now``); cheap otherwise."""
        if not self.enabled:
            return
        clock = self._clock()
        if not now and clock - self._last_drawn < self._interval:
            return
        self._last_drawn = clock
        line = text()
        self._stream.write("\r" + line.ljust(self._width))
        self._stream.flush()
        self._width = len(line)

    def close(self) -> None:
        """Erase the line, leaving the cursor at the start of an empty line."""
        if self.enabled and self._width:
            self._stream.write("\r" + " " * self._width + "\r")
            self._stream.flush()
            self._width = 0
