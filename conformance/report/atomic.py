"""A report file written whole or not at all: a temporary file beside it, renamed over it once complete.

Two runs writing the same path at once leave one of their two reports, never a mix of both; a
run killed while writing leaves the file as it was (what it had written stays in the temporary
file, ``.<name>.<pid>.<random>.partial`` beside it). A path that exists and is not a regular file (a FIFO,
``/dev/stdout``, a terminal) is written directly: renaming over it would replace it. Text that
UTF-8 cannot hold (a lone surrogate an implementation sent) is written as a backslash escape.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import IO


def _direct(path: Path) -> bool:
    """Whether ``path`` must be written in place: it exists and is not a regular file."""
    try:
        return not stat.S_ISREG(path.stat().st_mode)
    except OSError:  # it does not exist (yet): a new regular file
        return False


def _mode(path: Path) -> int:
    """The permissions the report gets: the old file's, or a new file's under the umask."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


class AtomicText:
    """The text file ``path``, replaced whole when :meth:`commit` is called (see the module docstring).

    :meth:`open` raises OSError when neither a temporary file nor the file itself can be written.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(os.path.realpath(path))  # a symlink's target is replaced, not the link
        self.temporary: Path | None = None
        self._stream: IO[str] | None = None

    def open(self) -> IO[str]:
        """The stream to write the report to (UTF-8); raises OSError."""
        if not _direct(self.path):
            with contextlib.suppress(OSError):  # a folder we cannot create in: write in place below
                fd, name = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.{os.getpid()}.",
                                            suffix=".partial")
                self.temporary = Path(name)
                self._stream = open(fd, "w", encoding="utf-8", errors="backslashreplace")
            if self.temporary is not None:
                with contextlib.suppress(OSError):
                    os.chmod(self.temporary, _mode(self.path))
        if self._stream is None:
            self._stream = open(self.path, "w", encoding="utf-8", errors="backslashreplace")
        return self._stream

    def commit(self) -> None:
        """Close the stream and put the report in place; raises OSError (the old file then stays)."""
        if self._stream is None:
            return
        stream, self._stream = self._stream, None
        try:
            stream.close()
            if self.temporary is not None:
                os.replace(self.temporary, self.path)
                self.temporary = None
        finally:
            self.abandon()

    def abandon(self) -> None:
        """Close the stream and remove the temporary file, leaving the old report in place (never raises)."""
        if self._stream is not None:
            with contextlib.suppress(OSError):
                self._stream.close()
            self._stream = None
        if self.temporary is not None:
            with contextlib.suppress(OSError):
                self.temporary.unlink()
            self.temporary = None
