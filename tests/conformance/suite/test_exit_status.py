"""Exit codes are decided by the command line (conformance.cli.exit_status), from what the results say."""

from __future__ import annotations

import signal

import pytest

from conformance.cli.exit_status import fuzz_exit_code, run_exit_code, stop_exit_code
from conformance.fuzz.search import FuzzResult
from conformance.suite.results import Outcome, RunResult, ScenarioResult, Stop, StopKind, Summary


def _run(*outcomes: Outcome, stop: Stop | None = None, interrupted: bool = False) -> RunResult:
    results = tuple(ScenarioResult(id=f"s{i}", title="", outcome=o) for i, o in enumerate(outcomes))
    return RunResult(info=None, results=results, summary=Summary.of(results, {}, ()), stop=stop,
                     interrupted=interrupted)


@pytest.mark.parametrize(("kind", "code"), [(StopKind.TIME, 1), (StopKind.FAIL_FAST, 1),
                                            (StopKind.START_FAILURES, 2), (StopKind.NOTHING_TO_TEST, 2)])
def test_each_early_stop_has_its_exit_code(kind, code):
    assert stop_exit_code(Stop(kind=kind, message="")) == code
    assert run_exit_code(_run(Outcome.PASSED, stop=Stop(kind=kind, message=""))) == code


def test_a_signal_names_itself_and_a_bad_result_is_one_unless_something_worse_happened():
    hup = Stop(kind=StopKind.SIGNAL, message="", signal=signal.SIGHUP)
    assert run_exit_code(_run(Outcome.FAILED, stop=hup, interrupted=True)) == 129
    assert run_exit_code(_run(Outcome.PASSED, Outcome.ERRORED)) == 1
    assert run_exit_code(_run(Outcome.STALE, stop=Stop(kind=StopKind.NOTHING_TO_TEST, message=""))) == 2
    assert run_exit_code(_run(Outcome.PASSED, Outcome.XFAILED, Outcome.SKIPPED)) == 0
    assert run_exit_code(_run(Outcome.PASSED), signum=signal.SIGTERM) == 143  # the signal the command caught


def test_fuzz_exits_one_for_a_finding_and_with_the_signal_when_interrupted():
    assert fuzz_exit_code(FuzzResult(info=None, seed=1, text=False)) == 0
    assert fuzz_exit_code(FuzzResult(info=None, seed=1, text=False, interrupted=True), signum=signal.SIGTERM) == 143
    assert fuzz_exit_code(FuzzResult(info=None, seed=1, text=False, interrupted=True)) == 130
