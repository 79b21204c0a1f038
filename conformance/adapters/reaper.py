"""Ending an implementation with every process it started, even those that left its process group.

An implementation runs in a process group of its own, but a descendant may leave it
(``setsid``, a daemonising double fork) and clear its environment. On Linux the runner therefore
becomes a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``), and so does the implementation
itself (:func:`child_setup`, before it starts): an orphaned descendant is re-parented to the
implementation while it lives, and to the runner after, instead of to init, where it can still be
found. :func:`descendants` walks ``/proc`` by parent pid; the runner notes the implementation's
descendants as it goes (:func:`snapshot`, each with its start time, so that a reused pid is never
taken for one), because after the implementation exits its orphans are the runner's children and
nothing else ties them to it — their environment may still carry the implementation's ``TOKEN``,
or not. :func:`kill_tree` kills the process group, every descendant found now, every one noted
before, and reaps those that became the runner's children. The implementation also gets
``PR_SET_PDEATHSIG``: when the runner is killed outright (a CI job cancelled with SIGKILL), the
kernel kills the implementation too. Elsewhere only the process group is killed.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Final

#: The environment variable that marks every process started for one implementation run.
TOKEN: Final = "PAS_IMPLEMENTATION_RUN"

_PR_SET_PDEATHSIG: Final = 1
_PR_SET_CHILD_SUBREAPER: Final = 36
_PROC: Final = Path("/proc")
_ROUNDS: Final = 100  # of looking for descendants again: one may fork while we kill the others
_PAUSE: Final = 0.005
_subreaper: bool | None = None
_prctl: Any = None  # libc's prctl, looked up once in the runner (never in a child between fork and exec)


def become_subreaper() -> bool:
    """Make this process the child subreaper of its descendants (Linux only, once); whether it is one."""
    global _subreaper, _prctl
    if _subreaper is None:
        _subreaper = False
        if sys.platform.startswith("linux"):
            try:
                _prctl = ctypes.CDLL(None, use_errno=True).prctl
                _subreaper = _prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
            except (OSError, AttributeError):  # no libc with prctl: the process group is all we can kill
                pass
    return _subreaper


def child_setup() -> Callable[[], None] | None:
    """What an implementation's process runs before it starts (``preexec_fn``); None where there is nothing to do.

    It becomes the subreaper of its own descendants, and (when started from the main thread:
    the signal follows the thread that started it) is killed when the runner dies.
    """
    if not become_subreaper():
        return None
    prctl, runner, main = _prctl, os.getpid(), threading.current_thread() is threading.main_thread()

    def setup() -> None:  # between fork and exec: system calls only, no import, no lock
        prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        if main:
            prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            if os.getppid() != runner:  # the runner died before the line above: nobody would kill us
                os._exit(1)

    return setup


def _start_time(pid: int) -> int | None:
    """When ``pid`` started (clock ticks since boot, /proc/<pid>/stat field 22); None when it is gone."""
    try:
        stat = (_PROC / str(pid) / "stat").read_bytes()
    except OSError:
        return None
    fields = stat.rsplit(b")", 1)[-1].split()
    return int(fields[19]) if len(fields) > 19 else None


def _children(pid: int) -> list[int] | None:
    """The children of ``pid`` from /proc/<pid>/task/*/children (every thread's); None where that file is missing."""
    try:
        tasks = os.listdir(_PROC / str(pid) / "task")
    except OSError:
        return []
    found: list[int] = []
    for task in tasks:
        try:
            found += [int(child) for child in (_PROC / str(pid) / "task" / task / "children").read_bytes().split()]
        except FileNotFoundError:
            return None if task == str(pid) else found
        except OSError:  # the thread ended meanwhile
            continue
    return found


def snapshot(root: int) -> dict[int, int]:
    """The live descendants of ``root`` with their start times (to note them while ``root`` lives)."""
    noted: dict[int, int] = {}
    todo = [root]
    while todo:
        children = _children(todo.pop())
        if children is None:  # no children files here: the whole walk of /proc
            found = descendants(root, "")
            return {pid: started for pid in found if (started := _start_time(pid)) is not None}
        for child in children:
            if child not in noted and (started := _start_time(child)) is not None:
                noted[child] = started
                todo.append(child)
    return noted


def _still(noted: Mapping[int, int]) -> set[int]:
    """Those of the ``noted`` processes (pid -> start time) still alive: the same pid with the same start time."""
    return {pid for pid, started in noted.items() if _start_time(pid) == started}


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
    if not token:
        return False
    try:
        return f"{TOKEN}={token}".encode() in (_PROC / str(pid) / "environ").read_bytes().split(b"\0")
    except OSError:
        return False


def descendants(root: int, token: str) -> set[int]:
    """The live descendants of ``root``, plus this process's children marked with ``token`` (orphans)."""
    found = _descendants_by_children(root, token)
    return found if found is not None else _descendants_by_parents(root, token)


def _descendants_by_children(root: int, token: str) -> set[int] | None:
    """:func:`descendants` from the children files of the few processes concerned (a whole walk of /proc
    reads every process's stat: ~5 ms with 140 processes); None where those files are missing."""
    ours = _children(os.getpid())
    if ours is None:
        return None
    found = {pid for pid in ours if pid != root and _carries(pid, token)}
    todo = [root, *found]
    while todo:
        children = _children(todo.pop())
        if children is None:
            return None
        for child in children:
            if child not in found and child != root:
                found.add(child)
                todo.append(child)
    return found


def _descendants_by_parents(root: int, token: str) -> set[int]:
    """:func:`descendants` from every visible process's parent (a whole walk of /proc)."""
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


def kill_tree(pid: int, token: str, noted: Mapping[int, int] | None = None) -> None:
    """SIGKILL the process group ``pid`` leads, every descendant of ``pid`` and every one ``noted`` before
    (pid -> start time, from :func:`snapshot`) that is still there; does not reap ``pid`` itself.

    Descendants that end up as this process's children are reaped; the loop stops when none
    is left or after about half a second (a descendant that is not ours to reap is init's).
    """
    found = descendants(pid, token) if _PROC.is_dir() else set()  # before the group dies and they scatter
    found |= _still(noted or {}) if _PROC.is_dir() else set()
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
