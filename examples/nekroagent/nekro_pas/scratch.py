"""The scratch folder NekroAgent is imported in, removed as soon as the import is done.

Importing ``nekro_agent`` creates ``./data/nekro_agent/...`` (config, logs) and ``./plugins``
relative to the working directory, so the adapter imports it inside a fresh temporary folder.
Nothing NekroAgent does afterwards needs that folder (the adapter replaces the config file,
the database and the template path), so it is deleted right after the import: a process
killed later, as the runner kills an implementation whose scenario errored, leaves nothing
behind. A process killed *during* the import cannot clean up; its folder carries its pid
(``pas-nekro-<pid>-...``), and the next adapter that starts removes the folders of processes
that no longer exist.
"""

from __future__ import annotations

import os
import shutil
import tempfile

PREFIX = "pas-nekro-"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    return True


def owner(name: str) -> int | None:
    """The pid a scratch folder's name carries, or None for any other name."""
    if not name.startswith(PREFIX):
        return None
    pid = name[len(PREFIX):].split("-", 1)[0]
    return int(pid) if pid.isdigit() and "-" in name[len(PREFIX):] else None


def sweep(parent: str | None = None) -> list[str]:
    """Remove the scratch folders of adapters that died during their import; the paths removed."""
    parent = parent or tempfile.gettempdir()
    removed = []
    with os.scandir(parent) as entries:
        for entry in entries:
            pid = owner(entry.name)
            if pid is not None and pid != os.getpid() and entry.is_dir(follow_symlinks=False) and not _alive(pid):
                shutil.rmtree(entry.path, ignore_errors=True)
                removed.append(entry.path)
    return removed


def enter() -> str:
    """Sweep, then make a fresh scratch folder for this process and make it the working directory."""
    sweep()
    path = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")
    os.chdir(path)
    return path


def remove(path: str) -> None:
    """Delete the scratch folder (the working directory stays there, deleted: nothing writes to it any more)."""
    shutil.rmtree(path, ignore_errors=True)
