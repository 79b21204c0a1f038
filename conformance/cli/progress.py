"""One line of progress on a terminal, redrawn in place: ``pas run``'s and ``pas fuzz``'s.

``pas run: 120/204 scenarios, 3 failed, ~2 s left`` and
``pas fuzz: 120/500 examples, 2,310 steps/s, ~4 s left``. Drawn on standard error only when it
is a terminal (never in CI logs, pipes or files), at most a few times a second, and never with
``pas run --quiet``. Hand-written: one line does not justify a dependency, and ``pas`` must
start fast. The front ends are its only users, so it lives with them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

from conformance.suite.results import BAD_OUTCOMES, ScenarioResult


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


class FuzzProgress(ProgressLine):
    """The ``pas fuzz`` line: examples tried of the budget, steps per second, time left.

    ``total`` is the example budget and ``budget`` the time budget in seconds (None: none).
    """

    def line(self, examples: int, steps: int, *, shrinking: bool = False) -> str:
        """The text of the progress line for these counts (no terminal control characters)."""
        elapsed = max(self.elapsed(), 1e-9)
        rate = steps / elapsed
        if shrinking:
            return f"pas fuzz: shrinking a disagreement, {examples} examples, {rate:,.0f} steps/s, {elapsed:.0f} s"
        left = self.time_left(examples)
        eta = f", ~{left:.0f} s left" if left is not None else ""
        return f"pas fuzz: {examples}/{self._total} examples, {rate:,.0f} steps/s{eta}"

    def update(self, examples: int, steps: int, *, shrinking: bool = False) -> None:
        """Redraw the line if enough time passed since the last drawing (cheap otherwise)."""
        self.draw(lambda: self.line(examples, steps, shrinking=shrinking))
