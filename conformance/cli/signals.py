"""Turn SIGINT, SIGTERM and SIGHUP into one clean stop: the report is written, the implementation closed.

Inside :func:`stop_on_signals` the first of those signals raises
:class:`~conformance.suite.runner.Interrupted` (a KeyboardInterrupt carrying the signal
number) in the main thread, wherever it is waiting; the runner and the fuzzer catch it and
return what they have. Later signals are remembered but ignored until the block ends, so
that writing the report and stopping the implementation are not cut short. The previous
handlers come back when the block ends. Exit with ``ExitCode.for_signal(guard.signum)``.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

HANDLED = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class SignalGuard:
    """Which signal stopped the run (None: none), and how many arrived in all."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self.count = 0
        self.deferring = False

    @contextmanager
    def deferred(self) -> Iterator[None]:
        """Inside the block a signal is only recorded (``signum``), not raised: for work that must finish,
        such as loading the suite, after which the caller acts on ``signum``."""
        self.deferring = True
        try:
            yield
        finally:
            self.deferring = False

    def handle(self, signum: int, frame: FrameType | None) -> None:
        """The handler: raise on the first signal (record it only while deferring), only count the later ones."""
        del frame
        self.count += 1
        if self.signum is None and self.deferring:
            self.signum = signum
        elif self.signum is None:
            from conformance.suite.runner import Interrupted

            self.signum = signum
            raise Interrupted(signum)


@contextmanager
def stop_on_signals() -> Iterator[SignalGuard]:
    """Install the handlers for the duration of the block (main thread only; elsewhere a no-op)."""
    guard = SignalGuard()
    previous = {}
    try:
        for signum in HANDLED:
            previous[signum] = signal.signal(signum, guard.handle)
    except ValueError:  # not the main thread: leave the handlers alone
        pass
    try:
        yield guard
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def finish(action: Callable[[], object]) -> None:
    """Run a clean-up ``action``; run it again if the (single) signal the guard lets through cut it short."""
    try:
        action()
    except KeyboardInterrupt:
        action()


def close_adapter(adapter: Any, command: str, *, quick: bool = False) -> None:
    """Close the implementation, under :func:`finish`; a failure to close is said on stderr, never raised.

    The report or finding matters more than a clean goodbye. ``quick`` (after a signal) kills it
    at once instead of saying goodbye and waiting for it to go.
    """
    def close() -> None:
        try:
            if quick:
                adapter.reset()
            adapter.close()
        except Exception as error:  # noqa: BLE001 - the report matters more than a clean goodbye
            print(f"pas {command}: closing the implementation failed: {error}", file=sys.stderr)

    finish(close)
