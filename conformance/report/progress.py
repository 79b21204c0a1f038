"""One line of progress for ``pas run`` on a terminal: done/total, failures so far, time left.

``pas run: 120/204 scenarios, 3 failed, ~2 s left``, redrawn in place at most a few times a
second on standard error, and only when it is a terminal (never in CI logs, pipes or files,
and never with ``--quiet``). Hand-written, like ``pas fuzz``'s: one line does not justify a
dependency, and ``pas`` must start fast.
"""

from __future__ import annotations

import time
from typing import TextIO

from conformance.suite.results import BAD_OUTCOMES, ScenarioResult


class RunProgress:
    """Draws the line on ``stream`` when it is a terminal (or when ``enabled`` says so)."""

    def __init__(self, stream: TextIO, *, total: int, max_time: float | None = None, enabled: bool | None = None,
                 interval: float = 0.2, clock=time.monotonic) -> None:
        if enabled is None:
            isatty = getattr(stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = enabled
        self._stream, self._total, self._max_time = stream, total, max_time
        self._interval, self._clock = interval, clock
        self._started = self._last_drawn = clock()
        self.done = self.bad = 0
        self._width = 0

    def line(self) -> str:
        """The text of the line for the counts so far (no terminal control characters)."""
        elapsed = self._clock() - self._started
        left = (self._total - self.done) * elapsed / self.done if self.done else None
        if self._max_time is not None:
            budget = max(self._max_time - elapsed, 0.0)
            left = budget if left is None else min(left, budget)
        eta = f", ~{left:.0f} s left" if left is not None else ""
        return f"pas run: {self.done}/{self._total} scenarios, {self.bad} failed{eta}"

    def update(self, result: ScenarioResult) -> None:
        """Count ``result`` and redraw when enough time has passed (cheap otherwise)."""
        self.done += 1
        self.bad += result.outcome in BAD_OUTCOMES
        if not self.enabled:
            return
        now = self._clock()
        if now - self._last_drawn < self._interval and self.done < self._total:
            return
        self._last_drawn = now
        text = self.line()
        self._stream.write("\r" + text.ljust(self._width))
        self._stream.flush()
        self._width = len(text)

    def close(self) -> None:
        """Erase the line, leaving the cursor at the start of an empty line."""
        if self.enabled and self._width:
            self._stream.write("\r" + " " * self._width + "\r")
            self._stream.flush()
            self._width = 0
