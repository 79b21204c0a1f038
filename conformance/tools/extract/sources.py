"""Which Python files make up the plugins a user names, and reading them as Python does.

NekroAgent loads a plugin as one module: a ``name.py`` file or a ``name/`` package (folder
with ``__init__.py``), whose other files run when the package imports them. So a path is
resolved to whole plugins:

- a file inside a package (the entry ``__init__.py``, ``plugin.py``, ``handlers.py`` ...) or a
  folder inside one stands for the whole outermost package: every ``.py`` file in it;
- a lone ``.py`` file is its own plugin;
- any other folder is a plugins folder, searched for ``.py`` files (``__pycache__``, hidden
  and virtual-environment folders skipped).

Files are read as UTF-8 with an optional byte order mark, the encoding Python assumes.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from reference_impl.problems import Problem, SourceLocation

SKIPPED_DIRS = frozenset({"__pycache__", "node_modules", "site-packages", ".git", ".venv", "venv"})


def package_root(path: Path) -> Path | None:
    """The outermost package folder containing ``path`` (a file or folder), or None outside packages."""
    folder = path if path.is_dir() else path.parent
    root = None
    while (folder / "__init__.py").is_file():
        root = folder
        if folder.parent == folder:
            break
        folder = folder.parent
    return root


def _walk(folder: Path) -> list[Path]:
    found = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
        found += [Path(root) / n for n in sorted(names) if n.endswith(".py")]
    return found


def plugin_files(paths: Iterable[str]) -> tuple[list[Path], list[Problem]]:
    """Every file of every plugin the paths name (each once, in a stable order); missing paths are problems."""
    files: dict[Path, None] = {}
    problems = []
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            problems.append(Problem(code="path-not-found", message="no such file or folder",
                                    source=SourceLocation(path=raw)))
            continue
        package = package_root(path)
        if package is not None:
            files.update(dict.fromkeys(_walk(package)))
        elif path.is_dir():
            files.update(dict.fromkeys(_walk(path)))
        else:
            files[path] = None
    return list(files), problems


def read_sources(files: Iterable[Path]) -> tuple[list[tuple[str, str]], list[Problem]]:
    """``(path, text)`` of each readable file; an unreadable or non-UTF-8 file is a problem."""
    sources, problems = [], []
    for file in files:
        try:
            sources.append((file.as_posix(), file.read_text(encoding="utf-8-sig")))
        except (OSError, UnicodeDecodeError) as error:
            why = getattr(error, "strerror", None) or str(error)
            problems.append(Problem(code="unreadable", message=f"cannot read it: {why}",
                                    source=SourceLocation(path=str(file))))
    return sources, problems
