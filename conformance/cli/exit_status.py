"""The exit status of every ``pas`` command, decided from what it found.

Results and problem lists say what happened; which
:class:`~conformance.documents.exit_codes.ExitCode` a command returns for it is the command
line's business, so it is decided here and nowhere below. The JSON reports carry the code the
command decided (``exit_code``), passed to them from here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from conformance.documents.exit_codes import ExitCode

if TYPE_CHECKING:  # keep ``pas --help`` light: the result types are imported where they are used
    from conformance.fuzz.search import FuzzResult
    from conformance.suite.results import RunResult, Stop
    from conformance.validate.check import Validation
    from reference_impl.problems import Problem


def stop_exit_code(stop: Stop) -> int:
    """128 + the signal for a signal, USAGE when nothing could be tested, FAILED for a time limit or -x."""
    from conformance.suite.results import StopKind

    if stop.kind is StopKind.SIGNAL:
        return ExitCode.for_signal(stop.signal or 2)
    usage = stop.kind in (StopKind.START_FAILURES, StopKind.NOTHING_TO_TEST)
    return ExitCode.USAGE if usage else ExitCode.FAILED


def run_exit_code(run: RunResult, *, signum: int | None = None) -> int:
    """``pas run``'s status: OK, FAILED (a bad result), USAGE (nothing testable) or 128 + the signal.

    ``signum`` is the signal that stopped the command, whatever the run recorded.
    """
    if signum is not None:
        return ExitCode.for_signal(signum)
    failed = ExitCode.FAILED if run.bad else ExitCode.OK
    if run.stop is not None:
        return ExitCode.worst(stop_exit_code(run.stop), failed)
    return ExitCode.SIGINT if run.interrupted else failed


def fuzz_exit_code(result: FuzzResult, *, signum: int | None = None) -> int:
    """``pas fuzz``'s status: FAILED when something was found, USAGE when there was nothing to fuzz,
    128 + the signal when interrupted, else OK."""
    if result.found:
        return ExitCode.FAILED
    if result.nothing_to_test is not None:
        return ExitCode.USAGE
    if result.interrupted:
        return ExitCode.for_signal(signum or 2)
    return ExitCode.OK


def problems_exit_code(problems: Iterable[Problem], *, strict: bool = False) -> ExitCode:
    """The status of a command that reads documents: USAGE when an input could not be had at all,
    FAILED on any other error (or any warning with ``strict``), else OK."""
    from conformance.documents.sets import input_missing
    from reference_impl.problems import Severity

    problems = list(problems)
    if input_missing(problems):
        return ExitCode.USAGE
    failing = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
    return ExitCode.FAILED if any(p.severity in failing for p in problems) else ExitCode.OK


def validation_exit_code(validation: Validation, *, strict: bool = False) -> int:
    """``pas validate``'s status: USAGE on an input error, FAILED on errors (or warnings with ``strict``), else OK."""
    return problems_exit_code(validation.problems, strict=strict)
