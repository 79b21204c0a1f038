"""The next stream written ahead: to an implementation that announces a ``pipeline_depth``, the stdio adapter
writes the next scenario's (or fuzz case's) requests once every answer of the current one has come, before
they are all read; the next stream goes on from them. Every verdict stays the one without them: seen from
the implementation's side (tests/fakes/pipeline_recorder.py lists the ids each read brought it)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from support.pipeline_support import EVENTS, RECORDER, START
from support.pipeline_support import expected as _expected

from conformance.adapters.implementation import FailureKind, ImplementationFailed, InFlight, Requests, Sent
from conformance.adapters.stdio import StdioAdapter
from reference_impl.events import Activate, StartRun

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("error::ResourceWarning")]

NEXT = Requests.of(EVENTS, start=START)
# ids: 1 hello; the first stream 2 (start) to 9; the next one 10 (start) to 17
NEXT_START = 10


def _recorder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, depth: int = 64, **env: str) -> tuple[StdioAdapter, Path]:
    reads = tmp_path / "reads"
    monkeypatch.setenv("PAS_FAKE_DEPTH", str(depth))
    monkeypatch.setenv("PAS_FAKE_READS", str(reads))
    monkeypatch.setenv("PAS_FAKE_SETTLE", "0")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return StdioAdapter(RECORDER, timeout=10.0), reads


def _reads(log: Path) -> list[list[int]]:
    return [[int(i) for i in line.split()] for line in log.read_text().splitlines()] if log.exists() else []


def _received(log: Path, request_id: int) -> bool:
    """Wait (10 s at most: a condition, not a speed) until the implementation has read request ``request_id``."""
    deadline = time.monotonic() + 10.0
    while time.monotonic() < deadline:
        if any(request_id in ids for ids in _reads(log)):
            return True
        time.sleep(0.01)
    return False


def test_the_implementation_gets_the_next_start_before_the_last_answer_is_read_and_the_next_stream_goes_on(
        monkeypatch, tmp_path):
    adapter, reads = _recorder(monkeypatch, tmp_path)
    with adapter:
        first = adapter.stream(EVENTS, start=START, then=NEXT)
        assert next(first) is None and next(first) == _expected()[0]
        # the recorder answers a read's requests in one write: every answer of this stream has come
        assert _received(reads, NEXT_START), _reads(reads)  # five answers of the first stream still unread
        assert list(first) == _expected()[1:]
        pid = adapter.pid
        assert list(adapter.stream(EVENTS, start=START)) == [None, *_expected()]
        assert adapter.pid == pid
    ids = [i for read in _reads(reads) for i in read]
    assert ids == list(range(1, 18)) + [18]  # each request written once, in order (18: bye)
    assert list(range(NEXT_START, NEXT_START + 8)) in _reads(reads)  # the next stream's, in one go


def test_a_next_stream_that_is_not_the_one_asked_for_is_dropped(monkeypatch, tmp_path):
    adapter, reads = _recorder(monkeypatch, tmp_path)
    other = [StartRun(conversation="c")]
    with adapter:
        assert list(adapter.stream(EVENTS, start=START, then=NEXT)) == [None, *_expected()]
        assert _received(reads, NEXT_START)
        assert list(adapter.stream(other, start=START)) == [None, _expected()[0]]  # its answers read and dropped
    assert [NEXT_START + 8, NEXT_START + 9] in _reads(reads)  # the stream asked for, after the dropped one


def test_a_bad_answer_with_the_next_stream_written_ahead_names_only_its_own_stream_and_stderr(monkeypatch, tmp_path):
    # The last answer of the first stream (request 9) is no observation; the next stream was written ahead when
    # it came, and the implementation said on stderr that it handled requests 10 to 17.
    adapter, reads = _recorder(monkeypatch, tmp_path, PAS_FAKE_STDERR="1", PAS_FAKE_BAD_AT="9")
    with adapter:
        first = adapter.stream(EVENTS, start=START, then=NEXT)
        assert [next(first) for _ in range(7)] == [None, *_expected()[:6]]
        assert _received(reads, NEXT_START)
        with pytest.raises(ImplementationFailed) as caught:
            next(first)
        assert adapter.pid is None
    failure = caught.value
    assert failure.kind is FailureKind.SCHEMA
    assert failure.in_flight == InFlight.one("run", 9)  # not 'start' (request 10) to 'run' (request 17)
    assert "handling request 9" in failure.detail and "handling request 10" not in failure.detail


def test_a_refusal_with_the_next_stream_written_ahead_keeps_the_process_and_the_next_streams_answers(
        monkeypatch, tmp_path):
    adapter, reads = _recorder(monkeypatch, tmp_path)
    refused = Activate(conversation="", module_name="weather")
    with adapter:
        first = adapter.stream([EVENTS[0], EVENTS[1], refused], start=START, then=NEXT)
        assert [next(first) for _ in range(3)] == [None, *_expected()[:2]]
        assert _received(reads, 6)  # the next stream's start, written before the refusal was read
        pid = adapter.pid
        with pytest.raises(ImplementationFailed) as caught:
            next(first)
        first.close()
        assert caught.value.kind is FailureKind.REFUSED and caught.value.in_flight == InFlight.one("activate", 5)
        assert list(adapter.stream(EVENTS, start=START)) == [None, *_expected()]
        assert adapter.pid == pid
    ids = [i for read in _reads(reads) for i in read]
    assert ids == sorted(set(ids))  # nothing sent twice: the next stream's requests written ahead were its own


def test_a_crash_on_the_next_streams_requests_is_that_streams_failure(monkeypatch, tmp_path):
    # It dies on reading request 10, the next stream's start: the first stream had all its answers by then.
    adapter, _ = _recorder(monkeypatch, tmp_path, PAS_FAKE_CRASH_AT=str(NEXT_START))
    with adapter:
        assert list(adapter.stream(EVENTS, start=START, then=NEXT)) == [None, *_expected()]
        with pytest.raises(ImplementationFailed) as caught:
            list(adapter.stream(EVENTS, start=START))
    assert caught.value.kind is FailureKind.EXITED
    assert caught.value.in_flight == InFlight(first=Sent(cmd="start", id=NEXT_START), last=Sent(cmd="run", id=17))


def test_strictly_in_turn_nothing_is_written_ahead(monkeypatch, tmp_path):
    adapter, reads = _recorder(monkeypatch, tmp_path, depth=1)
    with adapter:
        assert list(adapter.stream(EVENTS, start=START, then=NEXT)) == [None, *_expected()]
        assert list(adapter.stream(EVENTS, start=START)) == [None, *_expected()]
    assert all(len(ids) == 1 for ids in _reads(reads))


def test_nothing_is_written_ahead_of_or_into_a_stream_written_in_pieces(monkeypatch, tmp_path):
    adapter, reads = _recorder(monkeypatch, tmp_path)
    in_pieces = Requests.of(EVENTS, start=START, split_writes=True)

    def last_read() -> int:
        return max(i for ids in _reads(reads) for i in ids)

    with adapter:
        assert list(adapter.stream(EVENTS, start=START, then=in_pieces)) == [None, *_expected()]
        assert last_read() == NEXT_START - 1  # its answers all read: the one in pieces not begun
        assert list(adapter.stream(EVENTS, start=START, split_writes=True, then=NEXT)) == [None, *_expected()]
        assert last_read() == NEXT_START + 7
