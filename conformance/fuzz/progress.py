"""A one-line progress display for long fuzz runs, on a terminal only.

``pas fuzz: 120/500 examples, 2,310 steps/s, ~4 s left``, redrawn in place at most a
few times a second. When the stream is not a terminal (CI logs, pipes, files) nothing is
written at all, so logs stay clean.
"""

from __future__ import annotations

import time
from typing import TextIO


class Progress:
    """Draws the progress line on ``stream`` when it is a terminal (or when ``enabled`` says so).

    ``total`` is the example budget and ``budget`` the time budget in seconds (None: none).
    """

    def __init__(self, stream: TextIO, *, total: int, budget: float | None = None, enabled: bool | None = None,
                 interval: float = 0.2, clock=time.monotonic) -> None:
        if enabled is None:
            isatty = getattr(stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = enabled
        self._stream = stream
        self._total = total
        self._budget = budget
        self._interval = interval
        self._clock = clock
        self._started = clock()
        self._last_drawn = self._started  # the first line after one interval: early rates are noise
        self._width = 0

    def line(self, examples: int, steps: int, *, shrinking: bool = False) -> str:
        """The text of the progress line for these counts (no terminal control characters)."""
        elapsed = max(self._clock() - self._started, 1e-9)
        rate = steps / elapsed
        if shrinking:
            return f"pas fuzz: shrinking a disagreement, {examples} examples, {rate:,.0f} steps/s, {elapsed:.0f} s"
        left = (self._total - examples) * elapsed / examples if examples else None
        if self._budget is not None:
            budget_left = max(self._budget - elapsed, 0.0)
            left = budget_left if left is None else min(left, budget_left)
        eta = f", ~{left:.0f} s left" if left is not None else ""
        return f"pas fuzz: {examples}/{self._total} examples, {rate:,.0f} steps/s{eta}"

    def update(self, examples: int, steps: int, *, shrinking: bool = False) -> None:
        """Redraw the line if enough time passed since the last drawing (cheap otherwise)."""
        if not self.enabled:
            return
        now = self._clock()
        if now - self._last_drawn < self._interval:
            return
        self._last_drawn = now
        text = self.line(examples, steps, shrinking=shrinking)
        self._stream.write("\r" + text.ljust(self._width))
        self._stream.flush()
        self._width = len(text)

    def close(self) -> None:
        """Erase the line, leaving the cursor at the start of an empty line."""
        if self.enabled and self._width:
            self._stream.write("\r" + " " * self._width + "\r")
            self._stream.flush()
            self._width = 0
