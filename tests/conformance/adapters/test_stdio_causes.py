"""A hostile stdio implementation's failure is named in its own terms: what it wrote, where, and which request.

One hostile fake in tests/fakes per case (tests/fakes/reference_loop.py answers like the reference
and lets each break one thing). Each test fails on the runner before issue 30: a traceback, an
exception of the runner ("MalformedDocument", "RecursionError"), a timeout or an id where the
cause was known, a line shown as ``b'...'``, a schema form instead of the field.
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pytest
from support.bundled import bundled_suite

from conformance.adapters import child as child_module
from conformance.adapters.child import STDIN_CLOSED, Child
from conformance.adapters.implementation import FailureKind as K
from conformance.adapters.implementation import ImplementationFailed, InFlight
from conformance.adapters.stdio import StdioAdapter
from conformance.suite.results import Outcome
from conformance.suite.runner import run_scenario
from conformance.suite.scenario import Scenario

ROOT = Path(__file__).resolve().parents[3]
FAKES = ROOT / "tests" / "fakes"
BOUND = 5.0  # seconds: the step timeout, longer than any of these fakes needs to fail

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("error::ResourceWarning")]


def fake(name: str, *args: str, timeout: float = BOUND) -> StdioAdapter:
    return StdioAdapter([sys.executable, str(FAKES / f"{name}.py"), *args], timeout=timeout)


def scenario(scenario_id: str) -> Scenario:
    return next(s for s in bundled_suite()[0] if s.id == scenario_id)


def error_of(adapter: StdioAdapter, scenario_id: str = "restart-after-deferred-extend") -> tuple[Outcome, object]:
    """Run one scenario as ``pas run`` does: its outcome and its error (None when it did not error)."""
    with adapter:
        result = run_scenario(adapter, scenario(scenario_id), profiles=("activation", "text", "host"))
    return result.outcome, result.error


def hello_failure(adapter: StdioAdapter) -> ImplementationFailed:
    with adapter, pytest.raises(ImplementationFailed) as caught:
        adapter.hello()
    return caught.value


def test_a_lone_surrogate_in_the_hello_name_is_unreadable_at_its_pointer() -> None:
    failure = hello_failure(fake("hostile_surrogate", "name"))
    assert (failure.kind, failure.reason) == (K.UNREADABLE_LINE, "response to 'hello' is unreadable: lone surrogate")
    assert failure.detail.startswith("/result/name: a string holds half of a surrogate pair")


def test_a_lone_surrogate_in_a_text_errs_the_scenario_at_its_pointer() -> None:
    outcome, error = error_of(fake("hostile_surrogate", "text"))
    assert outcome is Outcome.ERRORED and error.kind is K.UNREADABLE_LINE
    assert error.reason == "response to 'run' is unreadable: lone surrogate"
    assert error.detail.startswith("/result/text: ")


def test_a_depth_written_with_a_fraction_is_said_to_be_so_not_an_exception_of_the_runner() -> None:
    failure = hello_failure(fake("hostile_float_depth"))
    assert (failure.kind, failure.reason) == (K.SCHEMA, "hello's pipeline_depth is not an integer")
    assert failure.detail == "/result/pipeline_depth: 64.0 is written with a fraction; the protocol's integers " \
                             "have none: write 64"
    assert failure.in_flight == InFlight.one("hello", 1)


def test_a_version_written_as_a_string_is_a_protocol_version_failure_saying_what_to_write() -> None:
    failure = hello_failure(fake("hostile_string_version"))
    assert (failure.kind, failure.reason) == (K.PROTOCOL_VERSION, "hello's protocol_version is not an integer")
    assert failure.detail == '/result/protocol_version: "1.0" is a string; write the integer 1'


def test_a_key_written_twice_is_a_duplicate_key_at_its_pointer() -> None:
    outcome, error = error_of(fake("hostile_duplicate_keys"))
    assert outcome is Outcome.ERRORED and error.kind is K.DUPLICATE_KEY
    assert error.reason == "response to 'run' has a key twice in one object"
    assert error.detail.startswith("/ok: written twice")


def test_an_unknown_field_inside_a_block_is_named_at_its_pointer_not_as_a_form_it_misses() -> None:
    outcome, error = error_of(fake("hostile_extra_field"), "activate-ends-step-for-every-outcome")
    assert outcome is Outcome.ERRORED and error.kind is K.SCHEMA
    assert error.detail.startswith("/result/block/priority: unknown field(s) 'priority'")
    assert "allowed forms" not in error.detail


def test_an_answer_skipped_among_requests_written_ahead_names_the_request_that_got_none() -> None:
    outcome, error = error_of(fake("hostile_missing_answer"), "restart-keeps-counters-mid-countdown")
    assert outcome is Outcome.ERRORED and error.kind is K.WRONG_ID
    first = error.in_flight.first
    assert re.fullmatch(rf"request {first.id} \('run'\) got no answer: the next answer is to request {first.id + 1} "
                        r"\('[a-z-]+'\), written after it", error.reason)
    assert error.detail.startswith("every request gets exactly one answer, in the order the requests came")


def test_a_closed_stdin_is_said_at_once_not_waited_out_as_a_timeout() -> None:
    adapter = fake("hostile_closes_stdin", timeout=600.0)  # a timeout would fail the test by its length
    with adapter:
        first = run_scenario(adapter, scenario("restart-after-deferred-extend"), profiles=("activation",))
        second = run_scenario(adapter, scenario("restart-at-last-visible-run"), profiles=("activation",))
    assert first.outcome is Outcome.PASSED  # it read the whole scenario, written ahead, before it closed its stdin
    assert second.outcome is Outcome.ERRORED and second.error.kind is K.STDIN_CLOSED
    # Strictly in turn (the runner looks into it that way) it closes its stdin on reading the restart.
    assert re.fullmatch(r"process closed its stdin before reading request \d+ \('run'\)", second.error.reason)


def test_a_log_line_on_stdout_is_shown_as_text_with_the_advice_to_log_to_stderr() -> None:
    outcome, error = error_of(fake("hostile_stdout_log"))
    assert outcome is Outcome.ERRORED and error.kind is K.UNREADABLE_LINE
    assert error.reason == "a line that is not JSON came where the answer to 'restart' was awaited"
    assert error.detail.startswith("the line: INFO restarting the scheduler\n")
    assert "b'" not in error.detail and "write logs and diagnostics to stderr" in error.detail


def test_an_answer_nested_600_deep_fails_the_step_with_its_difference_cut_not_a_recursion_error() -> None:
    adapter = fake("hostile_deep_config")
    with adapter:
        result = run_scenario(adapter, scenario("host-cfg-each-plugin-sees-only-its-namespace"), profiles=("host",))
    assert result.outcome is Outcome.FAILED and result.error is None
    shown = repr(result.failure.observed)
    assert "nested deeper than 64 levels" in shown


def test_the_stderr_of_a_failed_process_is_read_after_it_is_killed_never_waited_for_while_it_lives(monkeypatch) -> None:
    drained_alive: list[bool] = []
    original = child_module.Child._drain_stderr

    def drain(self: child_module.Child, wait: float) -> None:
        drained_alive.append(self.popen.poll() is None and os.path.exists(f"/proc/{self.popen.pid}"))
        original(self, wait)

    monkeypatch.setattr(child_module.Child, "_drain_stderr", drain)
    outcome, error = error_of(fake("hostile_schema_invalid"), "activate-ends-step-for-every-outcome")
    assert outcome is Outcome.ERRORED and error.kind is K.SCHEMA
    assert drained_alive and not any(drained_alive)


def test_a_request_left_unread_in_the_pipe_when_stdin_closes_is_said_within_a_second_not_at_the_timeout() -> None:
    # The write went into the pipe before the process closed its stdin, so no write ever fails:
    # only the pipe (no reader left, bytes still in it) tells that the request will never be read.
    code = "import os, time; time.sleep(0.3); os.close(0); time.sleep(60)"
    child = Child([sys.executable, "-c", code], max_line_bytes=1 << 20)
    try:
        request = b'{"id": 1, "cmd": "run"}\n'
        child.send(request)
        started = time.monotonic()
        assert child.read_line(started + 30, needs=len(request)) is STDIN_CLOSED
        assert time.monotonic() - started < 5  # not the 30 s deadline
    finally:
        child.kill()
