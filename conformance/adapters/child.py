"""One implementation process and its three pipes, driven from the caller's own thread.

The pipes are non-blocking and watched by one selector: :meth:`Child.send` writes what the
pipe takes at once and :meth:`Child.read_line` finishes the write while it waits for the
next stdout line, draining stderr (only its tail is kept) all along. So an implementation
that floods, stops reading or never answers cannot block the runner past a deadline, and a
round trip costs one write, one wait and one read: no thread hands a line to another.
The process runs in a process group of its own, marked with :data:`reaper.TOKEN`; :meth:`Child.kill`
ends it with every descendant (see :mod:`conformance.adapters.reaper`).
"""

from __future__ import annotations

import atexit
import os
import secrets
import selectors
import subprocess
import sys
import time
import weakref
from collections.abc import Sequence
from typing import Final

from conformance.adapters import reaper

_CHUNK: Final = 65536
_POLL: Final = 0.001  # seconds between looks at whether the process has read what was written
_STDERR_KEPT: Final = 4096
EOF: Final = object()  # what read_line returns once stdout is closed and no whole line is left
TOO_LONG: Final = object()  # ... or instead of a line longer than max_line_bytes

_LIVE: weakref.WeakSet[Child] = weakref.WeakSet()


class Child:
    """A running implementation: the process, its pipes, and what it wrote but was not read yet.

    Raises OSError or ValueError when ``argv`` cannot be started.
    """

    def __init__(self, argv: Sequence[str], max_line_bytes: int) -> None:
        reaper.become_subreaper()
        self.token = secrets.token_hex(8)
        self.popen = subprocess.Popen(
            list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
            start_new_session=True, env={**os.environ, reaper.TOKEN: self.token},
        )
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
        self._close_after = False
        self._stderr = bytearray()

    def send(self, data: bytes) -> None:
        """Write ``data`` to stdin, now or while waiting in read_line (never blocks)."""
        self._pending += data
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
        try:
            import fcntl
            import termios

            waiting = fcntl.ioctl(self._in, termios.FIONREAD, b"\0\0\0\0")
        except (ImportError, OSError):
            return True
        return int.from_bytes(waiting, sys.byteorder) == 0

    def close_stdin(self) -> None:
        """Close stdin once everything sent so far is written (end of input)."""
        self._close_after = True
        self._write()

    def read_line(self, deadline: float) -> bytes | object:
        """The next stdout line (without its newline), :data:`EOF` or :data:`TOO_LONG`.

        ``deadline`` is a ``time.monotonic()`` value; raises TimeoutError when it passes first.
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
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            for key, _ in self._selector.select(remaining):
                self._ready(key.fd)

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
            del self._stderr[:-_STDERR_KEPT]

    def _write(self) -> None:
        if self._stdin.closed:  # its descriptor may be another file's by now
            self._pending.clear()
            return
        watched = self._in in self._selector.get_map()
        try:
            while self._pending:
                del self._pending[: os.write(self._in, self._pending)]
        except BlockingIOError:  # the pipe is full: read_line writes the rest when it drains
            if not watched:
                self._selector.register(self._in, selectors.EVENT_WRITE)
            return
        except OSError:  # the process closed stdin or exited: read_line reports what it did
            self._pending.clear()
        if watched:
            self._selector.unregister(self._in)
        if self._close_after and not self._stdin.closed:
            self._stdin.close()

    def stderr_tail(self) -> str:
        """The last few KB the process wrote to stderr (what was read so far)."""
        return self._stderr.decode("utf-8", errors="replace")

    def last_words(self, wait: float) -> str:
        """For a process that failed: stop reading stdout, read stderr to its end (``wait`` seconds at most), its tail."""
        for fd in (self._in, self._out):
            if fd in self._selector.get_map():
                self._selector.unregister(fd)
        deadline = time.monotonic() + wait
        while self._err in self._selector.get_map() and (remaining := deadline - time.monotonic()) > 0:
            for key, _ in self._selector.select(remaining):
                self._ready(key.fd)
        return self.stderr_tail()

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
        """Kill the process, its group and every descendant, reap it and close the pipes (idempotent)."""
        if self.popen.returncode is None:
            reaper.kill_tree(self.popen.pid, self.token)
            self.popen.wait()
        _LIVE.discard(self)
        self._selector.close()
        for stream in self._streams:
            try:
                stream.close()
            except OSError:
                pass


@atexit.register
def _kill_leftovers() -> None:
    """At exit (an interrupted run that never closed its adapter), leave no implementation behind."""
    for child in list(_LIVE):
        child.kill()
