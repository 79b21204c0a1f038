"""Ending an implementation with every process it started, even those that left its process group.

An implementation runs in a process group of its own, but a descendant may leave it
(``setsid``, a daemonising double fork). On Linux the runner therefore becomes a *child
subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``): an orphaned descendant is re-parented to the
runner instead of to init, where it can still be found. :func:`kill_tree` kills the process
group, then every descendant found through ``/proc`` — the children of the implementation's
pid, recursively, and the runner's own children that carry the implementation's ``TOKEN``
in their environment (orphans re-parented here) — and reaps those that became the
runner's children. Elsewhere only the process group is killed.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Final

#: The environment variable that marks every process started for one implementation run.
TOKEN: Final = "PAS_IMPLEMENTATION_RUN"

_PR_SET_CHILD_SUBREAPER: Final = 36
_PROC: Final = Path("/proc")
_ROUNDS: Final = 100  # of looking for descendants again: one may fork while we kill the others
_PAUSE: Final = 0.005
_subreaper: bool | None = None


def become_subreaper() -> bool:
    """Make this process the child subreaper of its descendants (Linux only, once); whether it is one."""
    global _subreaper
    if _subreaper is None:
        _subreaper = False
        if sys.platform.startswith("linux"):
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                _subreaper = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
            except (OSError, AttributeError):  # no libc with prctl: the process group is all we can kill
                pass
    return _subreaper


def _parents() -> dict[int, int]:
    """Every visible process's parent pid, from /proc/<pid>/stat (empty where there is no /proc)."""
    parents: dict[int, int] = {}
    try:
        entries = os.listdir(_PROC)
    except OSError:
        return parents
    for entry in entries:
        if entry.isdigit():
            try:
                stat = (_PROC / entry / "stat").read_bytes()
            except OSError:  # it exited meanwhile
                continue
            fields = stat.rsplit(b")", 1)[-1].split()  # the command name may hold spaces and parentheses
            if len(fields) > 1:
                parents[int(entry)] = int(fields[1])
    return parents


def _carries(pid: int, token: str) -> bool:
    """Whether process ``pid`` was started with ``TOKEN=token`` in its environment."""
    try:
        return f"{TOKEN}={token}".encode() in (_PROC / str(pid) / "environ").read_bytes().split(b"\0")
    except OSError:
        return False


def descendants(root: int, token: str) -> set[int]:
    """The live descendants of ``root``, plus this process's children marked with ``token`` (orphans)."""
    parents = _parents()
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    found: set[int] = set()
    todo = [root, *(pid for pid in children.get(os.getpid(), ()) if pid != root and _carries(pid, token))]
    found.update(todo[1:])
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found and child != root:
                found.add(child)
                todo.append(child)
    return found


def _kill(pids: Iterable[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:  # gone already, or not ours to kill
            pass


def _reap(pids: set[int]) -> set[int]:
    """Reap those of ``pids`` that are this process's children; the ones still not gone."""
    left = set()
    for pid in pids:
        try:
            if os.waitpid(pid, os.WNOHANG) != (0, 0):
                continue  # reaped
        except ChildProcessError:  # not our child (yet): someone else reaps it, or it is re-parented to us
            pass
        if (_PROC / str(pid)).exists():
            left.add(pid)
    return left


def kill_tree(pid: int, token: str) -> None:
    """SIGKILL the process group ``pid`` leads and every descendant of ``pid``; does not reap ``pid`` itself.

    Descendants that end up as this process's children are reaped; the loop stops when none
    is left or after about half a second (a descendant that is not ours to reap is init's).
    """
    found = descendants(pid, token) if _PROC.is_dir() else set()  # before the group dies and they scatter
    try:
        os.killpg(pid, signal.SIGKILL)
    except (OSError, AttributeError):  # the group is gone, or there are no process groups here
        pass
    if not _PROC.is_dir():
        return
    _kill(found)
    killed = set(found)
    for _ in range(_ROUNDS):
        fresh = descendants(pid, token) - killed
        _kill(fresh)
        killed = _reap(killed | fresh)
        if not fresh and not killed:
            return
        time.sleep(_PAUSE)
