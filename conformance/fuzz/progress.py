"""A one-line progress display for long fuzz runs, on a terminal only.

``pas fuzz: 120/500 examples, 2,310 steps/s, ~4 s left`` (see
:class:`~conformance.documents.progress_line.ProgressLine` for when and how it is drawn).
"""

from __future__ import annotations

from conformance.documents.progress_line import ProgressLine


class Progress(ProgressLine):
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
