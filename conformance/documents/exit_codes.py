"""The one table of ``pas`` exit codes, shared by every command and every result type.

0 ok, 1 the thing checked failed, 2 usage or input error (including "nothing to test"),
and 128 + N when the run was stopped by signal N (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP),
as a shell reports a process killed by that signal.
"""

from __future__ import annotations

import enum
import signal


class ExitCode(enum.IntEnum):
    """What a ``pas`` command's exit status means."""

    OK = 0
    FAILED = 1  # something checked did not pass: a scenario, a manifest, a requirement
    USAGE = 2  # bad arguments or inputs, or nothing to test
    SIGHUP = 128 + signal.SIGHUP
    SIGINT = 128 + signal.SIGINT
    SIGTERM = 128 + signal.SIGTERM

    @classmethod
    def for_signal(cls, signum: int) -> int:
        """``128 + signum``: the table's member for HUP, INT and TERM, a plain int for any other signal."""
        try:
            return cls(128 + signum)
        except ValueError:
            return 128 + signum

    @classmethod
    def worst(cls, *codes: int) -> int:
        """The most serious of ``codes``: a signal beats usage beats failed beats ok."""
        return max(codes, default=cls.OK)
