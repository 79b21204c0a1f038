"""One implementation process and its three pipes, driven from the caller's own thread.

The pipes are non-blocking and watched by one selector: :meth:`Child.send` writes what the
pipe takes at once and :meth:`Child.read_line` finishes the write while it waits for the
next stdout line, draining stderr (only its tail is kept) all along. So an implementation
that floods, stops reading or never answers cannot block the runner past a deadline, and a
round trip costs one write, one wait and one read: no thread hands a line to another.
The process runs in a process group of its own, marked with :data:`reaper.TOKEN`, as the subreaper of
its own descendants; :meth:`Child.note_descendants` notes them as it goes and :meth:`Child.kill` ends it
with every descendant (see :mod:`conformance.adapters.reaper`).
"""

from __future__ import annotations

import atexit
import os
import secrets
import select
import selectors
import subprocess
import sys
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from conformance.adapters import reaper

_CHUNK: Final = 65536
_POLL: Final = 0.001  # seconds between looks at whether the process has read what was written
_IDLE: Final = 0.1  # seconds of silence after which read_line looks whether the process closed its stdin
_STDERR_KEPT: Final = 4096
EOF: Final = object()  # what read_line returns once stdout is closed and no whole line is left
TOO_LONG: Final = object()  # ... or instead of a line longer than max_line_bytes
STDIN_CLOSED: Final = object()  # ... or once the process stopped reading before the awaited request reached it
_STDERR_GRACE: Final = 0.2  # seconds to read stderr after a kill, for a descendant out of reach that still holds it

_STDERR_READS: Final = 4  # reads of stderr at most when a snapshot is taken: a flood is not read to its end

_LIVE: weakref.WeakSet[Child] = weakref.WeakSet()


@dataclass(frozen=True, slots=True)
class Stderr:
    """What a process wrote to stderr up to a point: how many bytes in all, and the last of them (a few KB)."""

    read: int
    kept: bytes

    def tail(self, since: int = 0) -> str:
        """The bytes kept that came after byte ``since``, as text."""
        kept = self.kept[max(0, len(self.kept) - (self.read - since)):] if since else self.kept
        return kept.decode("utf-8", errors="replace")


class Child:
    """A running implementation: the process, its pipes, and what it wrote but was not read yet.

    Raises OSError or ValueError when ``argv`` cannot be started.
    """

    def __init__(self, argv: Sequence[str], max_line_bytes: int) -> None:
        self.token = secrets.token_hex(8)
        self.popen = subprocess.Popen(
            list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
            start_new_session=True, env={**os.environ, reaper.TOKEN: self.token}, preexec_fn=reaper.child_setup(),
        )
        self._noted: dict[int, int] = {}  # its descendants seen so far (pid -> start time), killed with it
        self._noted_at = -float("inf")
        _LIVE.add(self)
        self.next_id = 1
        self._max_line_bytes = max_line_bytes
        stdin, stdout, stderr = self.popen.stdin, self.popen.stdout, self.popen.stderr
        assert stdin is not None and stdout is not None and stderr is not None  # all three are pipes
        self._stdin, self._streams = stdin, (stdin, stdout, stderr)
        self._in, self._out, self._err = (s.fileno() for s in self._streams)
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out, selectors.EVENT_READ)
        self._selector.register(self._err, selectors.EVENT_READ)
        self._lines = bytearray()  # stdout read but not returned yet
        self._scanned = 0  # how much of it holds no newline
        self._eof = False
        self._pending = bytearray()  # stdin not written yet
        self.sent = 0  # bytes given to send() so far
        self.written = 0  # ... and written to the pipe: the process can read those
        self.stdin_refused = False  # a write failed: the process closed its stdin (or exited)
        self._close_after = False
        self._stderr = bytearray()
        self.stderr_read = 0  # bytes read from stderr so far (only the last _STDERR_KEPT are kept)

    def send(self, data: bytes) -> None:
        """Write ``data`` to stdin, now or while waiting in read_line (never blocks)."""
        self._pending += data
        self.sent += len(data)
        self._write()

    def send_in_pieces(self, pieces: Sequence[bytes], deadline: float) -> None:
        """Write ``pieces`` one by one, each once the process has read everything before it (or at
        ``deadline``): so that it gets them in separate reads. Reads stdout and stderr meanwhile."""
        for index, piece in enumerate(pieces):
            self.send(piece)
            while index + 1 < len(pieces) and not self._drained() and time.monotonic() < deadline:
                for key, _ in self._selector.select(_POLL):
                    self._ready(key.fd)

    def _drained(self) -> bool:
        """Whether everything written to stdin has been read (True when that cannot be told, or stdin is closed)."""
        if self._pending:
            return self._stdin.closed
        return self._read_by_process() == self.written

    def _read_by_process(self) -> int:
        """How many bytes of stdin the process has read (all written ones when that cannot be told)."""
        if self._stdin.closed:
            return self.written
        try:
            import fcntl
            import termios

            waiting = fcntl.ioctl(self._in, termios.FIONREAD, b"\0\0\0\0")
        except (ImportError, OSError):
            return self.written
        return self.written - int.from_bytes(waiting, sys.byteorder)

    def close_stdin(self) -> None:
        """Close stdin once everything sent so far is written (end of input)."""
        self._close_after = True
        self._write()

    def read_line(self, deadline: float, *, needs: int = 0) -> bytes | object:
        """The next stdout line (without its newline), :data:`EOF`, :data:`TOO_LONG` or :data:`STDIN_CLOSED`.

        ``deadline`` is a ``time.monotonic()`` value; raises TimeoutError when it passes first.
        ``needs`` is how many bytes of stdin the process must have been able to read for the awaited
        line to come: once a write failed short of it, no line can come, and STDIN_CLOSED says so at once.
        """
        while True:
            end = self._lines.find(b"\n", self._scanned)
            if 0 <= end <= self._max_line_bytes:
                line = bytes(memoryview(self._lines)[:end])
                del self._lines[: end + 1]
                self._scanned = 0
                return line
            if end > self._max_line_bytes or len(self._lines) > self._max_line_bytes:
                return TOO_LONG  # stop reading: the process blocks until it is killed
            self._scanned = len(self._lines)
            if self._eof:
                return EOF
            if self.stdin_refused and self.written < needs:
                return STDIN_CLOSED
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            ready = self._selector.select(min(remaining, _IDLE))
            for key, _ in ready:
                self._ready(key.fd)
            if not ready and needs and self._read_by_process() < needs and self.stdin_gone():
                return STDIN_CLOSED  # what it had not read when it closed its stdin is lost: no answer can come

    def has_lines(self, count: int) -> bool:
        """Whether ``count`` whole stdout lines have come and not been returned yet; reads what the pipe
        holds now, never waiting (and nothing more once a line longer than max_line_bytes is held)."""
        if self._lines.count(b"\n") >= count:
            return True
        if self._eof or len(self._lines) > self._max_line_bytes:
            return False
        self._ready(self._out)
        return self._lines.count(b"\n") >= count

    def stderr_so_far(self) -> Stderr:
        """What it wrote to stderr up to now: the pipe read first, never waiting."""
        for _ in range(_STDERR_READS):
            before = self.stderr_read
            if self._err not in self._selector.get_map():
                break
            self._ready(self._err)
            if self.stderr_read == before:
                break
        return Stderr(read=self.stderr_read, kept=bytes(self._stderr))

    def _ready(self, fd: int) -> None:
        if fd == self._in:
            self._write()
            return
        try:
            chunk = os.read(fd, _CHUNK)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._selector.unregister(fd)
            self._eof = self._eof or fd == self._out
        elif fd == self._out:
            self._lines += chunk
        else:
            self._stderr += chunk
            self.stderr_read += len(chunk)
            del self._stderr[:-_STDERR_KEPT]

    def _write(self) -> None:
        if self._stdin.closed:  # its descriptor may be another file's by now
            self._pending.clear()
            return
        watched = self._in in self._selector.get_map()
        try:
            while self._pending:
                done = os.write(self._in, self._pending)
                del self._pending[:done]
                self.written += done
        except BlockingIOError:  # the pipe is full: read_line writes the rest when it drains
            if not watched:
                self._selector.register(self._in, selectors.EVENT_WRITE)
            return
        except OSError:  # the process closed stdin or exited: read_line reports what it did
            self._pending.clear()
            self.stdin_refused = True
        if watched:
            self._selector.unregister(self._in)
        if self._close_after and not self._stdin.closed:
            self._stdin.close()

    def stdin_gone(self) -> bool:
        """Whether the process closed its end of stdin (it reads no more), though every write so far went in."""
        if self._stdin.closed or not hasattr(select, "poll"):
            return self.stdin_refused
        poll = select.poll()
        poll.register(self._in, 0)  # no event asked for: an error (no reader left) is reported anyway
        return self.stdin_refused or any(event & select.POLLERR for _, event in poll.poll(0))

    def stderr_tail(self, since: int = 0) -> str:
        """The last few KB the process wrote to stderr (what was read so far), after byte ``since`` of it."""
        return Stderr(read=self.stderr_read, kept=bytes(self._stderr)).tail(since)

    def _drain_stderr(self, wait: float) -> None:
        """Read stderr to its end (``wait`` seconds at most: a writer out of reach may hold it open)."""
        for fd in (self._in, self._out):
            if fd in self._selector.get_map():
                self._selector.unregister(fd)
        deadline = time.monotonic() + wait
        while self._err in self._selector.get_map() and (remaining := deadline - time.monotonic()) > 0:
            for key, _ in self._selector.select(remaining):
                self._ready(key.fd)

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
        exited = _exit_watch(self.popen.pid)
        try:
            while (status := os.waitid(os.P_PID, self.popen.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)) is None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                if exited is None:
                    time.sleep(min(remaining, 0.01))
                else:  # readable once the process has exited: no sleep past it
                    select.select([exited], [], [], remaining)
        finally:
            if exited is not None:
                os.close(exited)
        return status.si_status if status.si_code == os.CLD_EXITED else -status.si_status

    def note_descendants(self, *, every: float = 0.0) -> None:
        """Note the processes it started so far, so that kill() finds them even after it exited and they were
        re-parented; with ``every``, not again within that many seconds of the last time."""
        now = time.monotonic()
        if self.popen.returncode is None and now - self._noted_at >= every:
            self._noted.update(reaper.snapshot(self.popen.pid))
            self._noted_at = now

    def kill(self) -> str:
        """Kill the process, its group and every descendant, reap it and close the pipes (idempotent).

        Returns the tail of its stderr, read to the end once every writer is dead: no wait for a
        process that is still running, none for one that already exited.
        """
        if self.popen.returncode is None:
            reaper.kill_tree(self.popen.pid, self.token, self._noted)
            self.popen.wait()
        _LIVE.discard(self)
        if self._selector.get_map() is not None:  # None once closed: killed before
            self._drain_stderr(_STDERR_GRACE)
            self._selector.close()
        for stream in self._streams:
            try:
                stream.close()
            except OSError:
                pass
        return self.stderr_tail()


def _exit_watch(pid: int) -> int | None:
    """A descriptor that becomes readable when process ``pid`` exits (Linux 5.3's pidfd); None where there is none."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


@atexit.register
def _kill_leftovers() -> None:
    """At exit (an interrupted run that never closed its adapter), leave no implementation behind."""
    for child in list(_LIVE):
        child.kill()
