"""Drive an implementation in any language over the PAS stdio protocol v1 (docs/protocol.md).

The implementation is a process that reads one JSON request per line on stdin and writes
one JSON response per line on stdout. :class:`StdioAdapter` starts it (lazily, or early with
:meth:`StdioAdapter.begin`, which also sends ``hello`` so that the process starts up while
the suite loads), checks every response once against its schema, and turns every
misbehaviour (exit, hang, garbage, deep nesting, a huge integer, an overlong line, a wrong
id, a schema-invalid or ``ok: false`` answer) into
:class:`~conformance.adapters.implementation.ImplementationFailed` of its
:class:`~conformance.adapters.implementation.FailureKind`, naming the requests in flight, after killing the process,
its process group and every descendant (:mod:`conformance.adapters.child`,
:mod:`conformance.adapters.reaper`) — except after an ``ok: false`` answer to a request other
than ``hello``: a refusal that came in its turn leaves the process as a wrong observation does. The pipes are driven from the caller's thread with
deadlines, so a silent, flooding or non-reading implementation can never block the runner.
To an implementation whose hello announces a ``pipeline_depth``, :meth:`StdioAdapter.stream`
writes a scenario's requests ahead of their answers (docs/protocol.md, "Pipelining"), and the
next scenario's once every answer of this one has come (:class:`~conformance.adapters.stream_requests.Ahead`).
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from collections.abc import Generator, Iterable, Sequence
from typing import Any, cast

from conformance.adapters import protocol
from conformance.adapters.answers import answer_to, awaiting, check_response, hello_info, read_answer
from conformance.adapters.child import EOF, STDIN_CLOSED, TOO_LONG, Child
from conformance.adapters.implementation import (
    DEFAULT_STEP_TIMEOUT,
    KEPT_KINDS,
    UNATTRIBUTED_KINDS,
    FailureKind,
    ImplementationFailed,
    InFlight,
    Requests,
    Sent,
)
from conformance.adapters.protocol.messages import ByeRequest, HelloRequest, StartRequest
from conformance.adapters.protocol.wire import CheckedBodies, MessageInvalid, check_message, encode
from conformance.adapters.stream_requests import Ahead, Maker, goes_ahead, makers_of, needs_no_start, not_started
from reference_impl.disclosure_commands import DisclosureEvent
from reference_impl.events import Event
from reference_impl.host_commands import HostCommand
from reference_impl.model import HostConfig, ImplementationInfo, Manifest
from reference_impl.spec_files import spec_version

#: The most requests written ahead of their answers to an implementation that announces a
#: ``pipeline_depth``, whatever depth it announces (answers of a stream stopped early are read and dropped).
MAX_AHEAD = 32
_EXIT_GRACE = 1.0  # seconds a process may take to exit after bye, or to report its exit status
_DYING_GRACE = 0.1  # seconds a process whose stdin refused a write may take to show it exited (a dying one does)
_NOTED_AFTER = frozenset({"hello", "start", "host-load", "disclosure-start"})  # answers after which its new processes are noted
_NOTE_EVERY = 0.25  # seconds
_Process = Child  # the process class, replaceable by tests that record every process started


class StdioAdapter:
    """The :class:`~conformance.adapters.implementation.Adapter` for an implementation run as ``argv``.

    ``timeout`` bounds each request, from sending it to reading the whole answer;
    ``max_line_bytes`` bounds each output line; with ``check_messages`` the requests
    sent are checked against their schemas too (raising MessageInvalid). ``spec_version`` is
    the spec version its hello names (default: spec/VERSION; ``pas run --spec-version 1.0``: 1.0.0).
    """

    def __init__(
        self, argv: list[str], timeout: float = DEFAULT_STEP_TIMEOUT, check_messages: bool = False,
        max_line_bytes: int = 1_048_576, spec_version: str | None = None,
    ) -> None:
        if not argv:
            raise ValueError("argv must name a program to run")
        self.argv = list(argv)
        self.timeout = timeout
        self.check_messages = check_messages
        self.max_line_bytes = max_line_bytes
        self.spec_version = spec_version
        self._process: Child | None = None
        self._info: ImplementationInfo | None = None
        self._greeting: HelloRequest | None = None  # a hello sent by begin(), not answered yet
        self._started = False
        self._checked = CheckedBodies()
        self._depth = 1  # requests the implementation takes ahead (its hello's pipeline_depth, at most MAX_AHEAD)
        self._dropped = 0  # of the requests unanswered, how many (the first) have answers to read and throw away
        self._unanswered: deque[tuple[Sent, int]] = deque()  # written, not answered: each with its end in stdin
        self._stderr_mark = 0  # how much of its stderr had been read when the last answer came
        self._split = False  # write each request line in pieces (a transport scenario, stream(split_writes=True))
        self._ahead: Ahead | None = None  # the next stream's requests, written ahead (at the end of _unanswered)

    @property
    def pid(self) -> int | None:
        """The process id of the running implementation, if one is running."""
        return self._process.popen.pid if self._process else None

    def begin(self) -> None:
        """Start the implementation now and send ``hello`` without waiting: hello() reads the answer.

        A start-up failure is kept for hello() to report; this never raises it.
        """
        if self._process is not None or self._info is not None:
            return
        try:
            request = HelloRequest(id=self._upcoming_id(), spec_version=self.spec_version or spec_version())
        except ImplementationFailed:
            return  # hello() tries again and reports why it cannot start
        self._send(request)
        self._greeting = request

    def hello(self) -> ImplementationInfo:
        """Start the implementation if needed and return who it is; raises ImplementationFailed.

        The answer to a hello sent by begin() is awaited from now on, for ``timeout`` seconds.
        """
        if self._info is None:
            request, self._greeting = self._greeting, None
            if request is not None and self._process is not None:
                reply = self._receive(self._process, time.monotonic() + self.timeout)
            else:
                request = HelloRequest(id=self._upcoming_id(), spec_version=self.spec_version or spec_version())
                reply = self._call(request)
            try:
                info, depth = hello_info(reply)
            except ImplementationFailed as failure:
                self._discard()
                raise failure.amended(in_flight=InFlight.one(request.cmd, request.id)) from None
            self._info, self._depth = info, min(depth, MAX_AHEAD)
        return self._info

    def start(self, manifests: Sequence[Manifest], host: HostConfig) -> None:
        """Begin a scenario with empty state; raises ImplementationFailed."""
        self._settle()
        self.hello()
        self._started = False
        self._call(StartRequest(id=self._upcoming_id(), plugins=tuple(manifests), host=host))
        self._started = True

    def send(self, event: Event | HostCommand | DisclosureEvent) -> dict[str, Any]:
        """Apply one event (or host command, or disclosure event) and return the observation's JSON; raises ImplementationFailed.

        A host command or a disclosure event needs no ``start`` first (host scenarios begin
        with ``host-load``, disclosure scenarios with ``disclosure-start``); the implementation
        is started and greeted when needed.
        """
        self._settle()
        if needs_no_start(event):
            self.hello()
        elif not self._started:
            raise not_started()
        result: dict[str, Any] = self._call(protocol.request_for(self._upcoming_id(), event))["result"]
        return result

    def stream(self, events: Iterable[Event | HostCommand | DisclosureEvent], *,
               start: tuple[Sequence[Manifest], HostConfig] | None = None,
               split_writes: bool = False, then: Requests | None = None) -> Generator[dict[str, Any] | None]:
        """``start`` (yielding None once it is answered), then each event's observation JSON, in order.

        The same requests and checks as start() and send() one by one; raises ImplementationFailed
        as they do. To an implementation that announced a ``pipeline_depth`` above 1 the requests
        are written ahead, up to that many unanswered (at most :data:`MAX_AHEAD`), so that it works
        while the caller compares. The caller may stop early (close the iterator): the answers to
        requests already written are read and dropped before anything else is sent. A failure that
        does not say which request written ahead caused it (an exit, a hang, a line that is no
        answer) is looked into strictly in turn, from a fresh process: the caller gets the answers
        it has not had yet and the failure of the request at fault, as strictly in turn; when
        strictly in turn nothing fails, the failure written ahead is raised, saying so. With
        ``split_writes`` each request line is written in pieces, each read before the next is
        written (:func:`pieces_of`): a transport scenario (strictly in turn too, when looked into).
        ``then`` is the stream the caller will ask for next if it goes on: once every answer of this
        one has come, its first requests are written (up to the depth), so that the implementation
        works on them while the caller compares; when it is asked for next it goes on from there,
        else their answers are read and dropped as those of a stream stopped early.
        """
        requests = Requests.of(events, start=start, split_writes=split_writes)
        self._settle(keep=requests)
        taken, self._ahead = self._ahead, None
        self.hello()
        self._split = split_writes
        try:
            yield from self._stream(requests, taken, then if then is not None and goes_ahead(requests, then) else None)
        finally:
            self._split = False

    def _stream(self, requests: Requests, taken: Ahead | None,
                then: Requests | None) -> Generator[dict[str, Any] | None]:
        events, start = requests.events, requests.start
        if self._depth == 1:
            yield from self._in_turn(events, start)
            return
        given = 0
        try:
            if taken is not None:
                self._started = self._started and start is None
                answers = self._pipelined(taken.makers, taken.written, then)
            else:
                answers = self._pipelined(self._makers(events, start), deque(), then)
            for answer in answers:
                yield answer
                given += 1
        except ImplementationFailed as failure:
            if failure.kind not in UNATTRIBUTED_KINDS or failure.in_flight is None or not failure.in_flight.pipelined:
                raise
            for index, answer in enumerate(self._in_turn(events, start)):
                if index >= given:
                    yield answer
            raise failure.amended(detail=f"{failure.detail}\nstrictly in turn (one request at a time) every request was "
                                         "answered: the failure comes with requests written ahead".lstrip()) from None

    def _in_turn(self, events: Sequence[Event | HostCommand | DisclosureEvent],
                 start: tuple[Sequence[Manifest], HostConfig] | None) -> Generator[dict[str, Any] | None]:
        if start is not None:
            self.start(*start)
            yield None
        for event in events:
            yield self.send(event)

    def _makers(self, events: Sequence[Event | HostCommand | DisclosureEvent],
                start: tuple[Sequence[Manifest], HostConfig] | None) -> deque[Maker]:
        """A maker of each request (given its id) of a stream; raises ImplementationFailed for an event with no start."""
        if start is not None:
            self._started = False
        elif not self._started and not all(needs_no_start(event) for event in events):
            raise not_started()
        return makers_of(events, start)

    def _pipelined(self, makers: deque[Maker], written: deque[Any],
                   then: Requests | None) -> Generator[dict[str, Any] | None]:
        """Write the requests ``makers`` make (given their ids) up to the depth ahead, after ``written`` (written
        already); yield their answers in turn. Once all are written and their answers have come, write ``then``'s."""
        process = self._spawn()
        try:
            while makers or written:
                batch: list[Any] = []
                while makers and len(written) + len(batch) < self._depth:
                    batch.append(makers.popleft()(process.next_id + len(batch)))
                if batch:
                    self._send(*batch)
                    written.extend(batch)
                if then is not None and not makers and process.has_lines(len(written)):
                    self._write_ahead(process, then)
                    then = None
                request = written.popleft()
                reply = self._receive(process, time.monotonic() + self.timeout)
                if isinstance(request, StartRequest):
                    self._started = True
                    yield None
                else:
                    yield reply["result"]
        finally:
            if self._process is process:  # not discarded after a failure: its answers are still to come
                self._dropped += len(written)

    def _write_ahead(self, process: Child, then: Requests) -> None:
        """Write the first of ``then``'s requests (up to the depth), every answer of the current stream having come."""
        stderr = process.stderr_so_far()  # before the next requests go out: what the current ones made it write
        makers = makers_of(then.events, then.start)
        batch = [makers.popleft()(process.next_id + i) for i in range(min(self._depth, len(makers)))]
        self._send(*batch)
        self._ahead = Ahead(requests=then, written=deque(batch), makers=makers, stderr=stderr)

    def _settle(self, keep: Requests | None = None) -> None:
        """Read and drop the answers to a stream stopped early, before anything else is sent; and those to the
        next stream's requests written ahead, unless it is ``keep``.

        Those requests were written ahead only: strictly in turn they would not have been sent. So
        a failure among them is nobody's result: the process is thrown away, quietly, and the next
        request starts a fresh one.
        """
        ahead = self._ahead
        if ahead is not None and ahead.requests != keep:
            self._dropped += len(ahead.written)
            self._ahead = None
        process = self._process
        if process is None or not self._dropped:
            return
        deadline = time.monotonic() + self.timeout
        try:
            while self._dropped:
                sent, needs = self._unanswered[0]
                in_flight = InFlight(first=sent, last=self._unanswered[-1][0])
                read_answer(self._read(process, in_flight, needs, deadline), in_flight)
                self._unanswered.popleft()
                self._dropped -= 1
        except ImplementationFailed:
            self._discard()

    def reset(self) -> None:
        """Kill the implementation (and every process it started); the next call starts a fresh one."""
        self._discard()

    def close(self) -> None:
        """Send ``bye``, give the process a moment to exit, then kill whatever is left (idempotent).

        A process started by begin() whose hello was never awaited is killed at once.
        """
        self._settle()
        if self._process is not None and self._info is not None:
            try:
                self._call(ByeRequest(id=self._upcoming_id()))
                if self._process is not None:
                    self._process.close_stdin()  # end of input too, for loops that stop only there
                    self._process.exit_status(_EXIT_GRACE)
            except ImplementationFailed:
                pass  # already discarded; closing never fails
        self._discard()

    def __enter__(self) -> StdioAdapter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # ------------------------------------------------------------------ internals

    def _upcoming_id(self) -> int:
        """The id of the next request (starting the process if needed); sending it uses it up."""
        return self._spawn().next_id

    def _forget(self) -> None:
        """Forget everything about the process: who it is, what it was sent."""
        self._info, self._started, self._greeting, self._depth, self._dropped = None, False, None, 1, 0
        self._stderr_mark, self._ahead = 0, None
        self._unanswered.clear()

    def _spawn(self) -> Child:
        if self._process is None:
            self._forget()
            try:
                self._process = _Process(self.argv, self.max_line_bytes)
            except (OSError, ValueError) as error:
                from conformance.adapters.start_failure import explain

                raise ImplementationFailed(
                    kind=FailureKind.START_FAILED, reason="could not start the implementation",
                    detail=explain(self.argv, error) if isinstance(error, OSError) else f"{self.argv[0]}: {error}",
                ) from None
        return self._process

    def _discard(self) -> str:
        """Kill the process, forget it; the tail of its stderr ("" when there was none)."""
        process, self._process = self._process, None
        self._forget()
        return process.kill() if process is not None else ""

    def _send(self, *requests: Any) -> Child:
        """Write ``requests``, in one go (each checked first with check_messages, raising MessageInvalid); the process."""
        lines = []
        for request in requests:
            doc = request.to_json()
            if self.check_messages and (problems := check_message(request.schema, doc)):
                raise MessageInvalid(schema=request.schema, problems=problems)
            lines.append(encode(doc))
        process = self._spawn()
        process.next_id = requests[-1].id + 1
        end = process.sent
        for request, line in zip(requests, lines):
            end += len(line)
            self._unanswered.append((Sent(cmd=request.cmd, id=request.id), end))
        if self._split:
            process.send_in_pieces([piece for line in lines for piece in pieces_of(line)],
                                   time.monotonic() + self.timeout)
        else:
            process.send(b"".join(lines))
        return process

    def _call(self, request: Any) -> dict[str, Any]:
        """Send ``request`` and return its validated successful response; raises ImplementationFailed."""
        deadline = time.monotonic() + self.timeout
        return self._receive(self._send(request), deadline)

    def _receive(self, process: Child, deadline: float) -> dict[str, Any]:
        """The validated successful response to the first request unanswered; on any failure,
        kills the process and raises, naming the requests in flight: from the one awaited to the last written
        (of its stream: the next stream's requests written ahead are none of its business).
        """
        ahead = self._ahead
        ours = len(self._unanswered) - (len(ahead.written) if ahead is not None else 0)
        sent, needs = self._unanswered[0]
        in_flight = InFlight(first=sent, last=self._unanswered[ours - 1][0])
        try:
            raw = self._read(process, in_flight, needs, deadline)
            # gone through only for an answer to another request
            unanswered = (each for each, _ in itertools.islice(self._unanswered, ours))
            answer = check_response(raw, self._checked, in_flight, unanswered)
        except ImplementationFailed as failure:
            if failure.kind in KEPT_KINDS and sent.cmd != "hello":
                raise self._refused(process, failure, in_flight) from None
            tail = self._discard()  # killed either way; its stderr read to the end
            if ahead is not None:  # but only what it wrote before the next stream's requests went out is this one's
                tail = ahead.stderr.tail()
            raise failure.amended(detail=_with_stderr(failure.detail, tail), in_flight=in_flight) from None
        self._unanswered.popleft()
        self._stderr_mark = process.stderr_read if ahead is None else ahead.stderr.read
        if sent.cmd in _NOTED_AFTER:  # after hello at once; then a few times a second at most (a /proc walk each)
            process.note_descendants(every=0.0 if sent.cmd == "hello" else _NOTE_EVERY)
        return answer

    def _refused(self, process: Child, failure: ImplementationFailed, in_flight: InFlight) -> ImplementationFailed:
        """An error answer, amended with what the process wrote to stderr while it worked on it.

        The answer came in its turn, well formed: the process is kept, as after a wrong observation
        (the next scenario begins with ``start``, which empties every state), so a host that takes
        seconds to start is not started again for each request it cannot do. Requests written
        after it are read and dropped before anything else is sent.
        """
        self._unanswered.popleft()
        if self._ahead is not None:  # what it wrote before the next stream's requests went out
            tail, self._stderr_mark = self._ahead.stderr.tail(since=self._stderr_mark), self._ahead.stderr.read
        else:
            tail, self._stderr_mark = process.stderr_tail(since=self._stderr_mark), process.stderr_read
        return failure.amended(detail=_with_stderr(failure.detail, tail), in_flight=in_flight)

    def _read(self, process: Child, in_flight: InFlight, needs: int, deadline: float) -> bytes:
        """The next line, awaited as the answer to ``in_flight.first`` (whose request ends at byte ``needs`` of stdin)."""
        try:
            raw = process.read_line(deadline, needs=needs)
        except TimeoutError:
            if process.stdin_gone():  # it read the request, or threw it away unread: either way it stopped reading
                raise ImplementationFailed(
                    kind=FailureKind.STDIN_CLOSED, detail="it stopped reading requests; read stdin until it ends (or bye)",
                    reason=f"process closed its stdin and gave no response to {answer_to(in_flight)} within "
                           f"{self.timeout:g} s") from None
            raise ImplementationFailed(kind=FailureKind.TIMEOUT,
                                       reason=f"no response to {answer_to(in_flight)} within {self.timeout:g} s") from None
        if raw is STDIN_CLOSED and (code := process.exit_status(_DYING_GRACE)) is not None:
            raise ImplementationFailed(kind=FailureKind.EXITED, reason=f"process exited with code {code} {awaiting(in_flight)}")
        if raw is EOF:
            code = process.exit_status(_EXIT_GRACE)
            what = "closed its stdout" if code is None else f"exited with code {code}"
            raise ImplementationFailed(kind=FailureKind.EXITED, reason=f"process {what} {awaiting(in_flight)}")
        if raw is STDIN_CLOSED:
            raise ImplementationFailed(
                kind=FailureKind.STDIN_CLOSED, reason=f"process closed its stdin before reading request "
                f"{in_flight.first.id} ({in_flight.first.cmd!r})",
                detail="it stopped reading requests, so no answer can come; read stdin until it ends (or bye)",
            )
        if raw is TOO_LONG:
            raise ImplementationFailed(kind=FailureKind.LINE_TOO_LONG, detail=awaiting(in_flight),
                                       reason=f"output line exceeds {self.max_line_bytes} bytes")
        return cast(bytes, raw)


def _with_stderr(detail: str, tail: str) -> str:
    """``detail``, followed by the end of the process's stderr when it wrote any."""
    return f"{detail}\nstderr (last {len(tail.encode())} bytes):\n{tail}".lstrip("\n") if tail else detail


def pieces_of(line: bytes) -> list[bytes]:
    """One request line (with its line feed) cut where a reader that handles each read as whole lines
    goes wrong: inside its first multi-byte UTF-8 character (else halfway), and before the line feed."""
    body = line[:-1]
    lead = next((i for i, byte in enumerate(body) if byte >= 0xC0), None)
    cut = lead + 1 if lead is not None else len(body) // 2
    return [piece for piece in (body[:cut], body[cut:], line[-1:]) if piece]
