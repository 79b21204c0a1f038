"""The stdio adapter: the reference over stdio, and every way a stdio implementation can misbehave."""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.bundled import bundled_suite
from support.stdio_support import gone_soon

from conformance.adapters.implementation import FailureKind as K
from conformance.adapters.implementation import ImplementationFailed
from conformance.adapters.protocol.wire import MessageInvalid
from conformance.adapters.stdio import StdioAdapter
from conformance.suite.scenario import Scenario
from reference_impl.engine import Engine
from reference_impl.events import (
    Activate,
    Disable,
    Enable,
    Extend,
    Restart,
    SetScheduler,
    SetStrategy,
    StartRun,
)
from reference_impl.model import HostConfig, Manifest

ROOT = Path(__file__).resolve().parents[3]
FAKES = ROOT / "tests" / "fakes"
REFERENCE = [sys.executable, "-m", "conformance", "serve-reference"]
SHORT = 0.5  # seconds: the per-request timeout where a test waits for a timeout
BOUND = 5.0  # seconds: the timeout everywhere else, and the time every hostile case must end within

pytestmark = [
    pytest.mark.slow,
    pytest.mark.filterwarnings("error::ResourceWarning"),
    pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning"),
]

WEATHER = Manifest.from_json({
    "name": "Weather", "module_name": "weather", "version": "1.0.0", "description": "Weather.",
    "allow_sleep": True, "sleep_brief": "Weather for a city.", "injects_prompt": True,
    "methods": [{"name": "get_weather", "kind": "tool", "description": "Current weather."}],
})
BASIC = Manifest.from_json({
    "name": "Basic", "module_name": "basic", "version": "1.0.0", "description": "Send messages.",
    "builtin": True, "allow_sleep": False,
})
HOST = HostConfig(enabled=("weather",))
EVERY_COMMAND = (
    StartRun(conversation="main"),
    Activate(conversation="main", module_name="weather", rounds=2),
    StartRun(conversation="main"),
    Extend(conversation="main", module_name="weather"),
    Activate(conversation="main", module_name="nope", rounds="many"),
    SetStrategy(module_name="weather", strategy="sometimes"),
    SetStrategy(module_name="weather", strategy="forbid_sleep"),
    StartRun(conversation="other", adapter="telegram"),
    Disable(module_name="weather"),
    Enable(module_name="weather"),
    SetScheduler(enabled=False),
    StartRun(conversation="main"),
    Restart(),
    SetScheduler(enabled=True),
    StartRun(conversation="main"),
)


@pytest.fixture(scope="module", autouse=True)
def importable_checkout() -> Iterator[None]:
    """Child processes find the checkout's packages whatever the working directory."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        yield


@pytest.fixture(scope="module")
def reference(importable_checkout: None) -> Iterator[StdioAdapter]:
    adapter = StdioAdapter(REFERENCE, timeout=BOUND, check_messages=True)
    adapter.hello()
    yield adapter
    adapter.close()


def fake(name: str, *args: str, timeout: float = BOUND) -> StdioAdapter:
    return StdioAdapter([sys.executable, str(FAKES / f"{name}.py"), *args], timeout=timeout)


def failure_of(adapter: StdioAdapter) -> tuple[ImplementationFailed, float]:
    """Run hello, start and run until the implementation fails: the failure and the time it took.

    The run gets the short timeout; hello and start keep theirs, so that a slow start-up on a
    busy machine cannot turn another failure into a timeout.
    """
    began = time.monotonic()
    with pytest.raises(ImplementationFailed) as caught:
        adapter.hello()
        adapter.start([WEATHER], HOST)
        adapter.timeout = SHORT
        adapter.send(StartRun(conversation="main"))
    took = time.monotonic() - began
    kept = adapter.pid is not None
    adapter.close()
    # A failed process is killed at once, before the runner resets; one that refused a request in its turn is kept.
    assert kept is (caught.value.kind is K.REFUSED and caught.value.in_flight.first.cmd != "hello")
    return caught.value, took


def one_scenario_per_folder() -> list[Scenario]:
    scenarios, _ = bundled_suite()  # problems in the suite are reported by the suite's own tests
    chosen: dict[str, Scenario] = {}
    for scenario in sorted(scenarios, key=lambda s: s.path):
        chosen.setdefault(Path(scenario.path).parent.name, scenario)
    return list(chosen.values())


# ------------------------------------------------------------------ the reference over stdio


def test_the_reference_over_stdio_introduces_itself_with_the_engine_identity(reference: StdioAdapter) -> None:
    assert reference.hello() == Engine.info


def test_the_reference_over_stdio_observes_exactly_what_the_engine_observes(reference: StdioAdapter) -> None:
    engine = Engine()
    engine.start([BASIC, WEATHER], HOST)
    reference.start([BASIC, WEATHER], HOST)
    for event in EVERY_COMMAND:
        assert reference.send(event) == engine.apply(event).to_json(), event


@pytest.mark.parametrize("scenario", one_scenario_per_folder(), ids=lambda s: s.id)
def test_suite_scenarios_observe_the_same_over_stdio_as_in_process(reference: StdioAdapter, scenario: Scenario) -> None:
    engine = Engine()
    engine.start(scenario.plugins, scenario.host)
    reference.start(scenario.plugins, scenario.host)
    for step in scenario.steps:
        assert reference.send(step.event) == engine.apply(step.event).to_json(), step.pointer


def test_start_forgets_the_previous_scenario(reference: StdioAdapter) -> None:
    reference.start([WEATHER], HOST)
    reference.send(Activate(conversation="main", module_name="weather"))
    reference.start([WEATHER], HOST)
    assert reference.send(StartRun(conversation="main"))["plugins"][0]["state"] == "sleeping"


def test_check_messages_catches_a_bad_outgoing_message_before_sending_it(reference: StdioAdapter) -> None:
    reference.start([WEATHER], HOST)
    with pytest.raises(MessageInvalid) as caught:
        reference.send(Activate(conversation="", module_name="weather"))
    assert caught.value.schema == "protocol/activate-request"
    assert [p.pointer for p in caught.value.problems] == ["/conversation"]
    assert reference.send(StartRun(conversation="main"))["plugins"][0]["module_name"] == "weather"


def test_without_check_messages_the_reference_itself_refuses_a_bad_request() -> None:
    with StdioAdapter(REFERENCE, timeout=BOUND) as adapter:
        adapter.start([WEATHER], HOST)
        with pytest.raises(ImplementationFailed) as caught:
            adapter.send(Activate(conversation="main", module_name=["weather"]))
    assert caught.value.reason == "implementation answered 'activate' with an error [invalid-request]"
    assert caught.value.kind is K.REFUSED and caught.value.in_flight.first.cmd == "activate"
    assert "/module_name" in caught.value.detail


def test_a_refusal_keeps_the_process_and_the_next_scenario_runs_in_it() -> None:
    with StdioAdapter(REFERENCE, timeout=BOUND) as adapter:
        adapter.start([WEATHER], HOST)
        first = adapter.pid
        with pytest.raises(ImplementationFailed) as caught:
            adapter.send(Activate(conversation="main", module_name=["weather"]))
        assert caught.value.kind is K.REFUSED and adapter.pid == first
        adapter.start([WEATHER], HOST)
        assert adapter.send(StartRun(conversation="main"))["plugins"][0]["state"] == "sleeping"
        assert adapter.pid == first


def test_a_refused_hello_is_no_use_and_its_process_is_killed() -> None:
    adapter = StdioAdapter([sys.executable, "-c", HELLO_REFUSED], timeout=BOUND)
    with pytest.raises(ImplementationFailed) as caught:
        adapter.hello()
    assert caught.value.kind is K.REFUSED and adapter.pid is None


HELLO_REFUSED = """import json, sys
for line in sys.stdin:
    print(json.dumps({"id": json.loads(line)["id"], "ok": False, "error": {"message": "busy"}}), flush=True)
"""


def test_a_refusal_shows_what_the_process_wrote_to_stderr_since_the_answer_before() -> None:
    with fake("hostile_error") as adapter:
        adapter.start([WEATHER], HOST)
        for request in (3, 5):
            with pytest.raises(ImplementationFailed) as caught:
                adapter.send(StartRun(conversation="main"))
            detail = caught.value.detail
            assert detail.startswith("run is not implemented yet\nstderr (last ")
            assert f"refusing request {request}" in detail and "up" not in detail.split("\n", 2)[2]
            assert detail.count("refusing") == 1
            adapter.start([WEATHER], HOST)


def test_a_killed_implementation_is_reported_and_reset_brings_a_working_one() -> None:
    adapter = StdioAdapter(REFERENCE, timeout=BOUND)
    adapter.start([WEATHER], HOST)
    first = adapter.pid
    os.kill(first, signal.SIGKILL)
    with pytest.raises(ImplementationFailed) as caught:
        adapter.send(StartRun(conversation="main"))
    assert caught.value.reason == "process exited with code -9 while handling 'run'"
    adapter.reset()
    adapter.start([WEATHER], HOST)
    assert adapter.send(StartRun(conversation="main"))["plugins"][0]["state"] == "sleeping"
    assert adapter.pid != first
    popen = adapter._process.popen
    adapter.close()
    adapter.close()
    assert popen.returncode == 0, "the reference exits by itself after bye"
    assert adapter.pid is None


def test_close_says_bye_and_closes_stdin_so_a_simple_loop_exits_by_itself() -> None:
    adapter = fake("hostile_crash")
    adapter.hello()
    popen = adapter._process.popen
    adapter.close()
    assert popen.returncode == 0


def test_a_line_longer_than_the_cap_fails_even_from_the_reference() -> None:
    with StdioAdapter(REFERENCE, timeout=BOUND, max_line_bytes=400) as adapter:
        adapter.start([BASIC, WEATHER], HOST)
        with pytest.raises(ImplementationFailed) as caught:
            adapter.send(StartRun(conversation="main"))
    assert caught.value.reason == "output line exceeds 400 bytes"


# ------------------------------------------------------------------ misuse and start-up


def test_begin_starts_the_process_and_sends_hello_so_hello_only_reads_the_answer() -> None:
    adapter = StdioAdapter(REFERENCE, timeout=BOUND)
    adapter.begin()
    assert adapter.pid is not None and adapter._process.next_id == 2  # hello (id 1) is on its way
    adapter.begin()  # once started, again does nothing
    assert adapter._process.next_id == 2
    assert adapter.hello() == Engine.info
    adapter.start([WEATHER], HOST)
    assert adapter.send(StartRun(conversation="main"))["plugins"][0]["state"] == "sleeping"
    popen = adapter._process.popen
    adapter.close()
    assert popen.returncode == 0


def test_begin_keeps_a_start_failure_for_hello_to_report() -> None:
    adapter = StdioAdapter([str(FAKES / "no_such_program")], timeout=SHORT)
    adapter.begin()
    assert adapter.pid is None
    with pytest.raises(ImplementationFailed, match="could not start the implementation"):
        adapter.hello()
    adapter.close()


def test_a_process_begun_but_never_greeted_is_killed_at_once_on_close() -> None:
    adapter = fake("hostile_silent")
    adapter.begin()
    popen = adapter._process.popen
    began = time.monotonic()
    adapter.close()
    assert time.monotonic() - began < BOUND and popen.returncode is not None and adapter.pid is None


def test_adapter_for_starts_a_command_early_only_when_asked() -> None:
    from conformance.adapters.select import adapter_for

    lazy = adapter_for(f"cmd:{sys.executable} -m conformance serve-reference")
    early = adapter_for(f"cmd:{sys.executable} -m conformance serve-reference", start_early=True)
    try:
        assert lazy.pid is None and early.pid is not None
        assert early.hello() == Engine.info
    finally:
        lazy.close()
        early.close()


def test_send_before_start_is_a_failure_not_a_crash() -> None:
    with StdioAdapter(REFERENCE, timeout=BOUND) as adapter:
        with pytest.raises(ImplementationFailed, match="no scenario started") as caught:
            adapter.send(StartRun(conversation="main"))
        assert caught.value.kind is K.NOT_STARTED


def test_a_program_that_does_not_exist_cannot_start() -> None:
    adapter = StdioAdapter([str(FAKES / "no_such_program")], timeout=SHORT)
    with pytest.raises(ImplementationFailed) as caught:
        adapter.hello()
    assert caught.value.reason == "could not start the implementation"
    assert caught.value.kind is K.START_FAILED and caught.value.in_flight is None
    adapter.close()


def test_an_empty_command_is_refused_at_construction() -> None:
    with pytest.raises(ValueError):
        StdioAdapter([])


def test_reset_and_close_are_idempotent_without_a_process() -> None:
    adapter = StdioAdapter(REFERENCE)
    adapter.reset()
    adapter.close()
    adapter.reset()
    assert adapter.pid is None


# ------------------------------------------------------------------ hostile implementations

HOSTILE = [  # the fake, its arguments, its failure's kind and reason, a part of its detail
    ("hostile_exit_on_hello", (), K.EXITED, "process exited with code 1 while handling 'hello'",
     "I do not speak this protocol"),
    ("hostile_crash", (), K.EXITED, "process exited with code 3 while handling 'run'", "fatal: simulated crash in run"),
    ("hostile_garbage", ("text",), K.UNREADABLE_LINE, "a line that is not JSON came where the answer to 'hello' was "
     "awaited", "the line: Starting scheduler v0.1 ...\n"),
    ("hostile_garbage", ("bad-utf8",), K.UNREADABLE_LINE, "response to 'hello' is not JSON", "can't decode byte 0xff"),
    ("hostile_garbage", ("array",), K.SCHEMA, "response to 'hello' is not a JSON object", "[1, 2, 3]"),
    ("hostile_garbage", ("no-ok",), K.SCHEMA, "response to 'hello' has no boolean 'ok'", '"result"'),
    ("hostile_flood_line", (), K.LINE_TOO_LONG, "output line exceeds 1048576 bytes", "while handling 'hello'"),
    ("hostile_flood_lines", (), K.UNREADABLE_LINE, "a line that is not JSON came where the answer to 'hello' was "
     "awaited", "write logs and diagnostics to stderr"),
    ("hostile_wrong_id", (), K.WRONG_ID, "response id 2 does not match request id 1", "while handling 'hello'"),
    ("hostile_deep_nesting", (), K.UNREADABLE_LINE, "response to 'run' is unreadable: nesting too deep",
     "nested deeper than"),
    ("hostile_huge_id", (), K.UNREADABLE_LINE, "response to 'hello' is unreadable: integer too large",
     "integer string conversion"),
    ("hostile_schema_invalid", (), K.SCHEMA, "response to 'run' does not match protocol/run-response",
     "/result/plugins/0/state: 'awake' is not allowed here"),
    ("hostile_error", (), K.REFUSED, "implementation answered 'run' with an error [not-implemented]",
     "run is not implemented yet"),
    ("hostile_version", (), K.PROTOCOL_VERSION,
     "protocol version mismatch: the implementation speaks 2, this runner speaks 1", ""),
]


@pytest.mark.parametrize(("name", "args", "kind", "reason", "detail"), HOSTILE,
                         ids=[f"{n}-{'-'.join(a)}".rstrip("-") for n, a, _, _, _ in HOSTILE])
def test_a_hostile_implementation_fails_quickly_with_a_precise_kind_and_reason(
    name: str, args: tuple[str, ...], kind: K, reason: str, detail: str
) -> None:
    failure, took = failure_of(fake(name, *args))
    assert (failure.kind, failure.reason) == (kind, reason)
    assert detail in failure.detail
    cmd = "run" if "'run'" in reason else "hello"  # the request unanswered: what failure_of sent last
    assert failure.in_flight is not None and failure.in_flight.first == failure.in_flight.last
    assert failure.in_flight.first.cmd == cmd and failure.in_flight.first.id is not None
    assert took < BOUND


def test_an_implementation_that_never_answers_hello_times_out() -> None:
    failure, took = failure_of(fake("hostile_silent", timeout=SHORT))
    assert failure.reason == "no response to 'hello' within 0.5 s" and failure.kind is K.TIMEOUT
    assert took < BOUND


def test_a_hang_times_out_and_kills_the_whole_process_group_including_children() -> None:
    failure, took = failure_of(fake("hostile_hang"))
    assert failure.reason == "no response to 'run' within 0.5 s"
    assert took < BOUND
    child = int(re.search(r"child pid (\d+)", failure.detail).group(1))
    assert gone_soon(child)


def test_after_a_failure_and_reset_the_adapter_starts_afresh() -> None:
    adapter = fake("hostile_crash")
    failure_of(adapter)
    adapter.reset()
    adapter.reset()
    assert adapter.hello().name == "hostile-crash"
    adapter.start([WEATHER], HOST)
    adapter.close()


def test_stderr_spam_is_drained_and_only_its_tail_is_kept() -> None:
    adapter = fake("hostile_stderr_spam")
    adapter.start([WEATHER], HOST)
    for _ in range(4):  # 1.25 MiB of stderr so far: far beyond a pipe buffer
        assert adapter.send(StartRun(conversation="main")) == {"plugins": []}
    with pytest.raises(ImplementationFailed) as caught:
        adapter.send(Restart())
    assert caught.value.reason == "process exited with code 3 while handling 'restart'"
    tail = caught.value.detail.split("\n", 1)[1]
    assert tail.endswith("last words before exit 3\n") and len(tail.encode()) <= 4096
    adapter.close()
