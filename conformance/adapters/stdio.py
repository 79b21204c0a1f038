"""Drive an implementation in any language over the PAS stdio protocol v1 (docs/protocol.md).

The implementation is a process that reads one JSON request per line on stdin and writes
one JSON response per line on stdout. :class:`StdioAdapter` starts it lazily, checks every
response against its schema, and turns every misbehaviour (exit, hang, garbage, an
overlong line, a wrong id, a schema-invalid or ``ok: false`` answer) into
:class:`~conformance.adapters.implementation.ImplementationFailed`, after killing the process and
its whole process group. Three daemon threads per process pump stdin, stdout and stderr,
so a silent, flooding or non-reading implementation can never block the runner.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from typing import Any, cast

from conformance.adapters import protocol
from conformance.adapters.implementation import DEFAULT_STEP_TIMEOUT, ImplementationFailed
from conformance.adapters.protocol.messages import ByeRequest, HelloRequest, HelloResponse, StartRequest
from conformance.adapters.protocol.wire import PROTOCOL_VERSION, MessageInvalid, check_message, decode, encode
from reference_impl.events import Event
from reference_impl.host_commands import HostCommand, is_host_command
from reference_impl.model import HostConfig, ImplementationInfo, Manifest
from reference_impl.spec_files import spec_version

_CHUNK = 65536
_STDERR_KEPT = 4096
_EXIT_GRACE = 1.0  # seconds a process may take to exit after bye, or to report its exit status
_EOF = object()  # what the stdout pump queues after the last line
_TOO_LONG = object()  # ... or instead of a line longer than max_line_bytes


class _Process:
    """One running implementation: the child process, its pipes and their pump threads."""

    def __init__(self, argv: Sequence[str], max_line_bytes: int) -> None:
        self.popen = subprocess.Popen(
            list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
        )
        self.next_id = 1
        self._max_line_bytes = max_line_bytes
        self._lines: queue.Queue[bytes | object] = queue.Queue(maxsize=8)  # bounded: a flood waits in the pipe
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self._stop = threading.Event()
        self._stderr = bytearray()
        self._stderr_lock = threading.Lock()
        self._threads = [
            threading.Thread(target=pump, name=f"pas-stdio-{name}-{self.popen.pid}", daemon=True)
            for name, pump in (("stdin", self._pump_stdin), ("stdout", self._pump_stdout), ("stderr", self._pump_stderr))
        ]
        for thread in self._threads:
            thread.start()

    def _pump_stdin(self) -> None:
        try:
            while (data := self._outbox.get()) is not None:
                self.popen.stdin.write(data)
                self.popen.stdin.flush()
            self.popen.stdin.close()  # end of input: the last request was sent
        except (OSError, ValueError):  # the process is gone; the stdout pump reports it
            pass

    def _pump_stdout(self) -> None:
        fd = self.popen.stdout.fileno()
        buffer = bytearray()
        while not self._stop.is_set():
            try:
                chunk = os.read(fd, _CHUNK)
            except OSError:
                chunk = b""
            if not chunk:
                self._put(_EOF)
                return
            start = len(buffer)  # what is already buffered holds no newline
            buffer += chunk
            while 0 <= (end := buffer.find(b"\n", start)) <= self._max_line_bytes:
                if not self._put(bytes(buffer[:end])):
                    return
                del buffer[: end + 1]
                start = 0
            if len(buffer) > self._max_line_bytes:
                self._put(_TOO_LONG)  # stop reading: the process blocks until it is killed
                return

    def _put(self, item: bytes | object) -> bool:
        while not self._stop.is_set():
            try:
                self._lines.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def _pump_stderr(self) -> None:
        fd = self.popen.stderr.fileno()
        while chunk := _read_or_empty(fd):
            with self._stderr_lock:
                self._stderr += chunk
                del self._stderr[:-_STDERR_KEPT]

    def send(self, data: bytes | None) -> None:
        """Queue ``data`` for the process's stdin, or None to close it after the rest (never blocks)."""
        self._outbox.put(data)

    def read_line(self, timeout: float) -> bytes | object:
        """The next stdout line, ``_EOF`` or ``_TOO_LONG``; raises queue.Empty after ``timeout`` seconds."""
        return self._lines.get(timeout=timeout)

    def stderr_tail(self) -> str:
        """The last few KB the process wrote to stderr."""
        with self._stderr_lock:
            return self._stderr.decode("utf-8", errors="replace")

    def exit_status(self, timeout: float) -> int | None:
        """The exit code (negative: killed by that signal) once it exits, or None after ``timeout``.

        The process is not reaped here, so its process group id stays reserved until kill().
        """
        if not hasattr(os, "waitid"):
            try:
                return self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                return None
        deadline = time.monotonic() + timeout
        while (status := os.waitid(os.P_PID, self.popen.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)) is None:
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.01)
        return status.si_status if status.si_code == os.CLD_EXITED else -status.si_status

    def kill(self) -> None:
        """Kill the process and its group, reap it, stop the pumps and close the pipes."""
        if self.popen.returncode is None:
            try:
                if hasattr(os, "killpg"):
                    os.killpg(self.popen.pid, signal.SIGKILL)
                else:
                    self.popen.kill()
            except OSError:
                pass
            self.popen.wait()
        self._stop.set()
        self.send(None)
        for thread in self._threads:
            thread.join(timeout=2.0)
        for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            try:
                stream.close()
            except OSError:
                pass


def _read_or_empty(fd: int) -> bytes:
    try:
        return os.read(fd, _CHUNK)
    except OSError:
        return b""


class StdioAdapter:
    """The :class:`~conformance.adapters.implementation.Adapter` for an implementation run as ``argv``.

    ``timeout`` bounds each request, from sending it to reading the whole answer;
    ``max_line_bytes`` bounds each output line; with ``check_messages`` the requests
    sent are checked against their schemas too (raising MessageInvalid).
    """

    def __init__(
        self, argv: list[str], timeout: float = DEFAULT_STEP_TIMEOUT, check_messages: bool = False, max_line_bytes: int = 1_048_576
    ) -> None:
        if not argv:
            raise ValueError("argv must name a program to run")
        self.argv = list(argv)
        self.timeout = timeout
        self.check_messages = check_messages
        self.max_line_bytes = max_line_bytes
        self._process: _Process | None = None
        self._info: ImplementationInfo | None = None
        self._started = False

    @property
    def pid(self) -> int | None:
        """The process id of the running implementation, if one is running."""
        return self._process.popen.pid if self._process else None

    def hello(self) -> ImplementationInfo:
        """Start the implementation if needed and return who it is; raises ImplementationFailed."""
        if self._info is None:
            reply = self._call(HelloRequest(id=self._upcoming_id(), spec_version=spec_version()))
            response = HelloResponse.from_json(reply)
            if response.protocol_version != PROTOCOL_VERSION:
                self._discard()
                raise ImplementationFailed(
                    reason=f"protocol version mismatch: the implementation speaks {response.protocol_version}, "
                    f"this runner speaks {PROTOCOL_VERSION}"
                )
            self._info = response.info
        return self._info

    def start(self, manifests: Sequence[Manifest], host: HostConfig) -> None:
        """Begin a scenario with empty state; raises ImplementationFailed."""
        self.hello()
        self._started = False
        self._call(StartRequest(id=self._upcoming_id(), plugins=tuple(manifests), host=host))
        self._started = True

    def send(self, event: Event | HostCommand) -> dict[str, Any]:
        """Apply one event (or host command) and return the observation's JSON; raises ImplementationFailed.

        A host command needs no ``start`` first (host scenarios begin with ``host-load``);
        the implementation is started and greeted when needed.
        """
        if is_host_command(event):
            self.hello()
            return dict(self._call(protocol.request_for(self._upcoming_id(), event))["result"])
        if not self._started:
            raise ImplementationFailed(reason="no scenario started", detail="call start() first, again after a failure")
        return dict(self._call(protocol.request_for(self._upcoming_id(), event))["result"])

    def reset(self) -> None:
        """Kill the implementation (and its process group); the next call starts a fresh one."""
        self._discard()

    def close(self) -> None:
        """Send ``bye``, give the process a moment to exit, then kill whatever is left (idempotent)."""
        if self._process is not None and self._info is not None:
            try:
                self._call(ByeRequest(id=self._upcoming_id()))
                self._process.send(None)  # end of input too, for loops that stop only there
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
        """The id of the next request (starting the process if needed); _call uses it up."""
        return self._spawn().next_id

    def _spawn(self) -> _Process:
        if self._process is None:
            self._info, self._started = None, False
            try:
                self._process = _Process(self.argv, self.max_line_bytes)
            except (OSError, ValueError) as error:
                raise ImplementationFailed(
                    reason="could not start the implementation", detail=f"{self.argv[0]}: {error}"
                ) from None
        return self._process

    def _discard(self) -> None:
        process, self._process = self._process, None
        self._info, self._started = None, False
        if process is not None:
            process.kill()

    def _call(self, request: Any) -> dict[str, Any]:
        """Send ``request`` and return its validated successful response; raises ImplementationFailed."""
        doc = request.to_json()
        if self.check_messages and (problems := check_message(request.schema, doc)):
            raise MessageInvalid(schema=request.schema, problems=problems)
        line = encode(doc)
        process = self._spawn()
        process.next_id = request.id + 1
        try:
            process.send(line)
            return self._answer(process, request)
        except ImplementationFailed as failure:
            tail = process.stderr_tail()
            self._discard()
            if not tail:
                raise
            detail = f"{failure.detail}\nstderr (last {len(tail.encode())} bytes):\n{tail}".lstrip("\n")
            raise ImplementationFailed(reason=failure.reason, detail=detail) from None

    def _answer(self, process: _Process, request: Any) -> dict[str, Any]:
        cmd = request.cmd
        try:
            raw = process.read_line(self.timeout)
        except queue.Empty:
            raise ImplementationFailed(reason=f"no response to {cmd!r} within {self.timeout:g} s") from None
        if raw is _EOF:
            code = process.exit_status(_EXIT_GRACE)
            what = "closed its stdout" if code is None else f"exited with code {code}"
            raise ImplementationFailed(reason=f"process {what} while handling {cmd!r}")
        if raw is _TOO_LONG:
            raise ImplementationFailed(
                reason=f"output line exceeds {self.max_line_bytes} bytes", detail=f"while handling {cmd!r}"
            )
        return _check_response(request, cast(bytes, raw))


def _check_response(request: Any, raw: bytes) -> dict[str, Any]:
    """The response on ``raw`` if it answers ``request`` correctly; raises ImplementationFailed."""
    cmd = request.cmd
    try:
        doc = decode(raw)
    except ValueError as error:
        raise ImplementationFailed(
            reason=f"response to {cmd!r} is not JSON", detail=f"{error}; the line: {raw[:200]!r}"
        ) from None
    if not isinstance(doc, dict):
        raise ImplementationFailed(reason=f"response to {cmd!r} is not a JSON object", detail=f"the line: {raw[:200]!r}")
    response_id = doc.get("id")
    unread = response_id is None and doc.get("ok") is False  # an error about a request it could not read
    if not unread and (type(response_id) is not int or response_id != request.id):
        raise ImplementationFailed(reason=f"response id {response_id!r} does not match request id {request.id}",
                                   detail=f"while handling {cmd!r}")
    if not isinstance(doc.get("ok"), bool):
        raise ImplementationFailed(reason=f"response to {cmd!r} has no boolean 'ok'", detail=f"the line: {raw[:200]!r}")
    schema = protocol.response_schema(cmd, doc)
    if problems := check_message(schema, doc):
        found = "; ".join(f"{p.pointer or '/'}: {p.message}" for p in problems)
        raise ImplementationFailed(reason=f"response to {cmd!r} does not match {schema}", detail=found)
    if doc["ok"] is False:
        error = doc["error"]
        code = f" [{error['code']}]" if "code" in error else ""
        raise ImplementationFailed(
            reason=f"implementation answered {cmd!r} with an error{code}", detail=error["message"]
        )
    return doc
