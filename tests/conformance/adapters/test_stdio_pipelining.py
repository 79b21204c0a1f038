"""Pipelining: to an implementation whose hello announces a ``pipeline_depth``, the stdio adapter writes
requests ahead (never more unanswered than announced), reads the answers in order, drops the answers
of a stream stopped early, and reports failures as strictly in turn; to any other, one at a time."""

from __future__ import annotations

import io
import itertools
import json
import sys
from pathlib import Path

import pytest
from support.bundled import bundled_suite
from support.pipeline_support import EVENTS, RECORDER, START, WEATHER
from support.pipeline_support import expected as _expected

from conformance.adapters import serve as serve_module
from conformance.adapters import stdio
from conformance.adapters.implementation import FailureKind, ImplementationFailed, InFlight, Sent, stream
from conformance.adapters.inprocess import reference_adapter
from conformance.adapters.stdio import StdioAdapter
from conformance.cli.commands import serve_reference
from conformance.suite.runner import run_suite
from reference_impl.events import Activate

REFERENCE = [sys.executable, "-m", "conformance", "serve-reference"]

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("error::ResourceWarning")]


def _recorder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, depth: int, **env: str) -> tuple[StdioAdapter, Path]:
    log = tmp_path / "most-unanswered"
    monkeypatch.setenv("PAS_FAKE_DEPTH", str(depth))
    monkeypatch.setenv("PAS_FAKE_LOG", str(log))
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return StdioAdapter(RECORDER, timeout=5.0), log


@pytest.mark.parametrize("depth", [1, 3])
def test_the_runner_writes_ahead_exactly_as_far_as_the_hello_allows(monkeypatch, tmp_path, depth):
    adapter, log = _recorder(monkeypatch, tmp_path, depth)
    with adapter:
        assert list(stream(adapter, EVENTS, start=START)) == [None, *_expected()]
    assert log.read_text() == str(depth)


def test_a_depth_above_the_runners_own_bound_is_capped(monkeypatch, tmp_path):
    monkeypatch.setattr(stdio, "MAX_AHEAD", 2)
    adapter, log = _recorder(monkeypatch, tmp_path, 64)
    with adapter:
        assert list(adapter.stream(EVENTS, start=START))[1:] == _expected()
    assert log.read_text() == "2"


def test_a_stream_stopped_early_leaves_the_next_requests_in_step(monkeypatch, tmp_path):
    adapter, _ = _recorder(monkeypatch, tmp_path, 8, PAS_FAKE_SETTLE="0")
    with adapter:
        answers = adapter.stream(EVENTS, start=START)
        assert next(answers) is None and next(answers) == _expected()[0]
        answers.close()  # six answers asked for and never read
        adapter.start(*START)
        assert [adapter.send(event) for event in EVENTS[:2]] == _expected()[:2]
        again = adapter.stream(EVENTS[:1], start=START)
        assert next(again) is None and next(again) == _expected()[0]


def test_a_crash_among_requests_written_ahead_is_found_strictly_in_turn_at_the_request_that_caused_it(
        monkeypatch, tmp_path):
    # ids: 1 hello, 2 start, 3.. the events; it dies on reading id 5, the third event, before answering any:
    # written ahead, start's answer never comes. Strictly in turn, from a fresh process, id 5 is the third event again.
    adapter, _ = _recorder(monkeypatch, tmp_path, 8, PAS_FAKE_CRASH_AT="5", PAS_FAKE_SETTLE="0")
    with adapter:
        answers = adapter.stream(EVENTS, start=START)
        assert next(answers) is None and [next(answers), next(answers)] == _expected()[:2]
        with pytest.raises(ImplementationFailed) as caught:
            next(answers)
        assert adapter.pid is None
        assert caught.value.kind is FailureKind.EXITED
        assert caught.value.reason == "process exited with code 3 while handling 'run'"
        assert caught.value.in_flight == InFlight.one("run", 5)
        monkeypatch.delenv("PAS_FAKE_CRASH_AT")
        assert list(adapter.stream(EVENTS, start=START))[1:] == _expected()  # a fresh process


def test_a_failure_written_ahead_names_the_range_in_flight_when_strictly_in_turn_nothing_fails(monkeypatch, tmp_path):
    # It dies whenever one read brings it more than two requests: a fault of taking requests ahead only.
    adapter, _ = _recorder(monkeypatch, tmp_path, 8, PAS_FAKE_CRASH_AHEAD="2", PAS_FAKE_SETTLE="0.05")
    with adapter:
        answers = adapter.stream(EVENTS, start=START)
        assert list(itertools.islice(answers, 1 + len(EVENTS))) == [None, *_expected()]  # strictly in turn
        with pytest.raises(ImplementationFailed) as caught:
            next(answers)
    failure = caught.value
    assert failure.kind is FailureKind.EXITED and failure.in_flight is not None and failure.in_flight.pipelined
    assert failure.reason == "process exited with code 3 with 'start' (request 2) to 'run' (request 9) unanswered " \
                             "(written ahead)"
    assert "strictly in turn (one request at a time) every request was answered" in failure.detail


def test_a_failure_of_one_answer_among_those_written_ahead_names_its_own_command(monkeypatch, tmp_path):
    adapter, _ = _recorder(monkeypatch, tmp_path, 8, PAS_FAKE_SETTLE="0")
    with adapter:
        answers = adapter.stream([*EVENTS[:2], Activate(conversation="", module_name="weather")], start=START)
        assert [next(answers) for _ in range(3)] == [None, *_expected()[:2]]
        with pytest.raises(ImplementationFailed, match="implementation answered 'activate' with an error") as caught:
            next(answers)
    assert caught.value.kind is FailureKind.REFUSED
    assert caught.value.in_flight == InFlight.one("activate", 5)  # the last request written: nothing after it


def test_a_refusal_with_requests_written_after_it_keeps_the_process_and_drops_their_answers(monkeypatch, tmp_path):
    adapter, _ = _recorder(monkeypatch, tmp_path, 8, PAS_FAKE_SETTLE="0")
    with adapter:
        refused = Activate(conversation="", module_name="weather")
        answers = adapter.stream([EVENTS[0], refused, *EVENTS[1:]], start=START)
        assert [next(answers) for _ in range(2)] == [None, _expected()[0]]
        first = adapter.pid
        with pytest.raises(ImplementationFailed) as caught:
            next(answers)
        assert caught.value.kind is FailureKind.REFUSED and caught.value.in_flight.first == Sent(cmd="activate", id=4)
        answers.close()
        assert list(adapter.stream(EVENTS, start=START)) == [None, *_expected()]  # the answers written ahead were dropped
        assert adapter.pid == first


def test_the_whole_suite_gives_the_same_results_with_and_without_pipelining():
    scenarios, _ = bundled_suite()
    in_process = run_suite(reference_adapter(), scenarios)
    for argv in ([*REFERENCE, "--pipeline-depth", "5"], [*REFERENCE, "--pipeline-depth", "1"]):
        with StdioAdapter(argv) as adapter:
            over_stdio = run_suite(adapter, scenarios)
        assert [(r.id, r.outcome) for r in over_stdio.results] == [(r.id, r.outcome) for r in in_process.results]


def test_the_reference_announces_its_depth_and_nothing_when_it_is_one():
    hello = b'{"id":1,"cmd":"hello","protocol_version":1,"spec_version":"1.0.0"}\n'
    for depth, announced in ((1, None), (7, 7)):
        out = io.BytesIO()
        serve_module.serve(io.BytesIO(hello), out, pipeline_depth=depth)
        assert json.loads(out.getvalue())["result"].get("pipeline_depth") == announced
    assert serve_reference.PIPELINE_DEPTH == serve_module.PIPELINE_DEPTH


def test_the_reference_answers_requests_that_arrive_together_in_order_with_one_write():
    lines = [json.dumps({"id": 1, "cmd": "hello", "protocol_version": 1, "spec_version": "1.0.0"}),
             json.dumps({"id": 2, "cmd": "start", "plugins": [WEATHER.to_json()], "host": {"enabled": ["weather"]}}),
             "", json.dumps({"id": 3, "cmd": "run", "conversation": "c"}), json.dumps({"id": 4, "cmd": "bye"}),
             json.dumps({"id": 5, "cmd": "run", "conversation": "c"})]

    class Recording(io.BytesIO):
        writes = 0

        def write(self, data):  # type: ignore[override]
            Recording.writes += 1
            return super().write(data)

    out = Recording()
    assert serve_module.serve(io.BytesIO("\n".join(lines).encode()), out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["id"] for a in answers] == [1, 2, 3, 4] and all(a["ok"] for a in answers)
    assert Recording.writes == 1  # one read brought all of them; nothing after bye


def test_a_hello_announcing_a_depth_below_one_is_a_protocol_failure(tmp_path):
    fake = tmp_path / "zero.py"
    fake.write_text(
        "import sys, json\n"
        "for line in sys.stdin:\n"
        "    doc = json.loads(line)\n"
        "    print(json.dumps({'id': doc['id'], 'ok': True, 'result': {'name': 'z', 'version': '1', "
        "'language': 'python', 'profiles': ['activation'], 'protocol_version': 1, 'pipeline_depth': 0}}), flush=True)\n"
    )
    with StdioAdapter([sys.executable, str(fake)]) as adapter, pytest.raises(ImplementationFailed, match="does not match"):
        adapter.hello()
