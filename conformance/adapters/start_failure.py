"""Why a ``cmd:`` implementation could not be started, said as what to change.

The operating system's own words (``[Errno 13] Permission denied``) name neither the cause nor
the fix: a script without the executable bit, a folder given as a program, a ``#!`` line naming
an interpreter that is not installed. :func:`explain` turns the ``OSError`` from starting
``argv`` into one sentence that does.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Sequence
from pathlib import Path

# The interpreter to suggest for a script by its suffix, when it has no #! line to read one from.
_INTERPRETERS = {".js": "node", ".mjs": "node", ".cjs": "node", ".ts": "npx tsx", ".py": "python3",
                 ".sh": "sh", ".bash": "bash", ".rb": "ruby", ".pl": "perl", ".php": "php", ".jar": "java -jar"}


def _shebang(path: Path) -> str | None:
    """The interpreter a ``#!`` first line names (``/usr/bin/env node`` -> ``node``), or None."""
    try:
        with path.open("rb") as stream:
            first = stream.readline(256)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode("utf-8", "replace").split()
    if not words:
        return None
    if Path(words[0]).name == "env":
        words = [w for w in words[1:] if not w.startswith("-")]
        return words[0] if words else None
    return words[0]


def _interpreter(path: Path) -> str:
    named = _shebang(path)
    if named is not None:
        return Path(named).name if "/" in named else named
    return _INTERPRETERS.get(path.suffix.lower(), "its interpreter")


def explain(argv: Sequence[str], error: OSError) -> str:
    """One sentence on why ``argv`` could not be started and what to change (the OS's words as a last resort)."""
    program = argv[0] if argv else ""
    path = Path(program)
    rest = " ".join(argv[1:])
    if error.errno in (errno.EACCES, errno.EPERM) and path.is_dir():
        return f"{program} is a folder, not a program; name the program inside it"
    if error.errno in (errno.EACCES, errno.EPERM) and path.is_file() and not os.access(path, os.X_OK):
        via = f"{_interpreter(path)} {program}" + (f" {rest}" if rest else "")
        return (f"{program} is not executable: make it executable (chmod +x {program}) "
                f"or run it through its interpreter (cmd:{via})")
    if error.errno == errno.ENOENT and path.is_file():
        named = _shebang(path)
        if named is not None:
            return f"{program} starts with #!, naming {named}, which is not installed or not on PATH"
    if error.errno == errno.ENOENT and "/" not in program:
        return f"{program}: no such program on PATH"
    if error.errno == errno.ENOENT:
        return f"{program}: no such file (relative paths are read from {Path.cwd()})"
    return f"{program}: {error.strerror or error}"
