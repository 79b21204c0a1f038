"""Comparing one step, shrinking a case greedily, and the progress line."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest

from conformance.adapters.implementation import FailureKind, ImplementationFailed, InFlight
from conformance.cli.progress import FuzzProgress
from conformance.fuzz.case import Case
from conformance.fuzz.compare import Disagreement, Verdict, differences
from conformance.fuzz.minimise import minimise
from conformance.fuzz.strategies import manifest
from reference_impl.events import Activate, Restart, SetScheduler, StartRun
from reference_impl.model import HostConfig

_RUN = StartRun(conversation="main")
_VIEW = {"module_name": "alpha", "state": "sleeping", "rounds_left": None, "hint": False, "brief_shown": True,
         "methods_shown": False, "injection_called": False}


def test_equal_observations_have_no_differences_and_extra_keys_are_ignored():
    expected = {"plugins": [_VIEW], "text": "T"}
    assert differences(0, _RUN, expected, {"plugins": [{**_VIEW, "x-vendor": 1}], "text": "T"}, text=True) == []


def test_a_differing_field_is_reported_with_its_pointer():
    actual = {"plugins": [{**_VIEW, "injection_called": True}]}
    [mismatch] = differences(0, _RUN, {"plugins": [_VIEW]}, actual, text=False)
    assert (mismatch.field, mismatch.subject, mismatch.expected, mismatch.actual) == ("injection_called", "alpha", False, True)


def test_the_text_is_compared_only_when_the_text_profile_is_claimed():
    expected, actual = {"plugins": [_VIEW], "text": "T"}, {"plugins": [_VIEW], "text": "other"}
    assert differences(0, _RUN, expected, actual, text=False) == []
    assert [m.pointer for m in differences(0, _RUN, expected, actual, text=True)] == ["/text"]


def test_an_observation_too_malformed_to_compare_is_an_implementation_failure():
    with pytest.raises(ImplementationFailed, match="malformed observation") as caught:
        differences(0, _RUN, {"plugins": [_VIEW]}, {"plugins": 7}, text=False)
    assert caught.value.kind is FailureKind.MALFORMED


def _errored(kind: FailureKind, cmd: str, reason: str, request_id: int | None = None) -> Disagreement:
    return Disagreement(verdict=Verdict.ERRORED, index=0, event=_RUN, kind=kind,
                        in_flight=InFlight.one(cmd, request_id), reason=reason)


def test_two_errors_are_the_same_finding_when_kind_and_command_agree_whatever_the_sentence_says():
    crash = _errored(FailureKind.EXITED, "run", "process exited with code 3 while handling 'run'", 7)
    assert crash.same_kind(_errored(FailureKind.EXITED, "run", "process exited with code -9 while handling 'run'", 4))
    assert not crash.same_kind(_errored(FailureKind.TIMEOUT, "run", "process exited with code 3 while handling 'run'"))
    assert not crash.same_kind(_errored(FailureKind.EXITED, "start", "process exited with code 3 while handling 'run'"))
    assert not crash.same_kind(Disagreement(verdict=Verdict.FAILED, index=0, event=_RUN)) and not crash.same_kind(None)
    # Without requests in flight (an answer too malformed to compare), the command is the step's.
    malformed = Disagreement(verdict=Verdict.ERRORED, index=2, event=_RUN, kind=FailureKind.MALFORMED)
    assert malformed.command == "run" and malformed.same_kind(replace(malformed, index=0, reason="other words"))


def _case(n_noise: int) -> Case:
    noise = (Restart(), SetScheduler(enabled=True), StartRun(conversation="side"))
    events = [noise[i % 3] for i in range(n_noise)]
    events[3:3] = [Activate(conversation="main", module_name="alpha")]
    return Case(plugins=(manifest("alpha"), manifest("beta")), host=HostConfig(enabled=("alpha", "beta")),
                events=(*events, _RUN))


def _activates_alpha_then_runs(case: Case) -> bool:
    names = [getattr(e, "module_name", None) for e in case.events]
    return "alpha" in names and isinstance(case.events[-1], StartRun)


def test_the_greedy_pass_keeps_only_what_the_disagreement_needs():
    small = minimise(_case(9), _activates_alpha_then_runs)
    assert small.events == (Activate(conversation="main", module_name="alpha"), _RUN)
    assert [m.module_name for m in small.plugins] == []  # the predicate does not need the plugin installed


def test_the_greedy_pass_stops_after_its_replay_cap():
    calls = []

    def counting(case: Case) -> bool:
        calls.append(case)
        return _activates_alpha_then_runs(case)

    small = minimise(_case(9), counting, max_tries=3)
    assert len(calls) == 3 and len(small.events) < 11


def test_the_progress_line_is_drawn_in_place_on_a_terminal_and_erased_at_the_end():
    stream, now = io.StringIO(), [0.0]
    progress = FuzzProgress(stream, total=100, budget=None, enabled=True, clock=lambda: now[0])
    now[0] = 2.0
    progress.update(25, 500)
    assert stream.getvalue() == "\rpas fuzz: 25/100 examples, 250 steps/s, ~6 s left"
    progress.close()
    assert stream.getvalue().endswith("\r" + " " * len("pas fuzz: 25/100 examples, 250 steps/s, ~6 s left") + "\r")


def test_the_time_left_is_the_smaller_of_the_example_budget_and_the_time_budget():
    now = [0.0]
    progress = FuzzProgress(io.StringIO(), total=1000, budget=5.0, enabled=True, clock=lambda: now[0])
    now[0] = 1.0
    assert progress.line(10, 100).endswith("~4 s left")


def test_the_progress_line_stays_quiet_on_a_stream_that_is_not_a_terminal():
    stream = io.StringIO()
    progress = FuzzProgress(stream, total=10)
    progress.update(5, 50)
    progress.close()
    assert not progress.enabled and stream.getvalue() == ""


@pytest.mark.parametrize("text", [True, False])
def test_the_search_reference_observes_exactly_what_the_engine_observes(text):
    from conformance.fuzz.compare import Reference
    from conformance.fuzz.generate import generate_case
    from reference_impl.engine import Engine

    reference, engine = Reference(text=text), Engine(text=text)
    for seed in range(60):
        case = generate_case(seed, 30)
        reference.start(case)
        engine.start(case.plugins, case.host)
        for event in case.events:
            assert reference.observe(event) == engine.apply(event).to_json()
