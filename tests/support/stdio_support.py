"""Shared helpers for the stdio adapter tests: whether a process is still there."""

from __future__ import annotations

import os
import time
from pathlib import Path


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (zombies count as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def gone_soon(pid: int) -> bool:
    """Whether ``pid`` disappears within a second (an orphan is reaped by init, not by us)."""
    deadline = time.monotonic() + 1.0
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    return not alive(pid)


def parent_of(pid: int) -> int | None:
    """The parent pid of a live process, from /proc (None when it is gone or there is no /proc)."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def wait_for_file(path: Path, bound: float = 5.0) -> str:
    """The text of ``path`` once something was written to it (raises TimeoutError after ``bound`` seconds)."""
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        if path.exists() and (text := path.read_text()):
            return text
        time.sleep(0.01)
    raise TimeoutError(path)
