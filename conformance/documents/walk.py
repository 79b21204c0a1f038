"""The one way PAS finds document files: in a folder, recursively, sorted, each file once.

Every tool that reads a folder of documents (``pas validate``, ``pas simulate``, ``pas host
plan``, ``pas config explain``, ``pas budget``, the scenario loader) uses :func:`walk_folder`,
so one folder gives one answer everywhere:

- recursive, sorted by name at each level (files and folders together, depth first);
- hidden entries (``.git``, ``.x.yaml``) and vendored folders (``node_modules`` ...) skipped;
- directory symlinks followed after the real folders, but each real folder visited once: a
  link to ``.``, to ``..`` or to any folder already walked is not followed (``symlink-cycle``,
  a warning);
- each real file listed once, however many links lead to it;
- FIFOs, sockets and devices refused (``special-file``), never opened;
- a folder that cannot be listed is an error (``unreadable``).

:func:`expand_pattern` is the glob counterpart: ``**`` never follows directory symlinks.
"""

from __future__ import annotations

import glob
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from conformance.documents.loader import DOCUMENT_SUFFIXES, refuse_special
from reference_impl.problems import Problem, Severity, SourceLocation

SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "site-packages"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Walk:
    """The document files found under one folder, in order, and what went wrong on the way."""

    files: tuple[Path, ...] = ()
    problems: tuple[Problem, ...] = ()


def _problem(code: str, message: str, path: Path | str, severity: Severity = Severity.ERROR) -> Problem:
    return Problem(code=code, message=message, severity=severity, source=SourceLocation(path=str(path)))


def _wanted(name: str, suffixes: tuple[str, ...], exclude: frozenset[str]) -> bool:
    return not name.startswith(".") and name.lower().endswith(suffixes) and name not in exclude


class _Walker:
    """One walk: the real folders and files seen so far, the files found, the problems."""

    def __init__(self, suffixes: tuple[str, ...], exclude: frozenset[str]) -> None:
        self.suffixes, self.exclude = suffixes, exclude
        self.folders: set[str] = set()
        self.seen: set[str] = set()
        self.files: list[Path] = []
        self.problems: list[Problem] = []
        self.linked: list[tuple[Path, tuple[str, ...]]] = []

    def folder(self, path: Path, ancestors: tuple[str, ...]) -> None:
        real = os.path.realpath(path)
        if real in self.folders or any(real == a or a.startswith(real.rstrip(os.sep) + os.sep) for a in ancestors):
            self.problems.append(_problem("symlink-cycle", f"leads back to {real}, which is already walked; "
                                          "not followed (each folder is read once)", path, Severity.WARNING))
            return
        self.folders.add(real)
        try:
            with os.scandir(path) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError as error:
            self.problems.append(_problem("unreadable", f"cannot list the folder: {error.strerror or error}; "
                                          "check its permissions", path))
            return
        for entry in entries:
            self.entry(entry, (*ancestors, real))

    def entry(self, entry: os.DirEntry[str], ancestors: tuple[str, ...]) -> None:
        if entry.name.startswith("."):
            return
        try:
            is_dir = entry.is_dir()  # follows a symlink; a dangling one is neither dir nor file
        except OSError:
            is_dir = False
        if is_dir:
            if entry.name in SKIPPED_DIRS:
                return
            if entry.is_symlink():  # real folders first, so a file is listed under its real path
                self.linked.append((Path(entry.path), ancestors))
            else:
                self.folder(Path(entry.path), ancestors)
            return
        if not _wanted(entry.name, self.suffixes, self.exclude):
            return
        self.file(Path(entry.path))

    def file(self, path: Path) -> None:
        problem = refuse_special(path)
        if problem is not None:
            self.problems.append(problem)
            return
        real = os.path.realpath(path)
        if real not in self.seen:
            self.seen.add(real)
            self.files.append(path)


def walk_folder(root: Path | str, *, suffixes: tuple[str, ...] = DOCUMENT_SUFFIXES,
                exclude: frozenset[str] = frozenset()) -> Walk:
    """Every document file under ``root`` (see the module docstring); never raises for bad input.

    ``exclude`` names files to leave out wherever they are (e.g. the suite's ``fixtures.yaml``).
    A missing root is ``path-not-found``, a root that is not a folder ``not-a-directory``.
    """
    path = Path(root)
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return Walk(problems=(_problem("path-not-found", "no such file or directory", path),))
    except OSError as error:
        return Walk(problems=(_problem("unreadable", f"cannot read: {error.strerror or error}", path),))
    if not stat.S_ISDIR(mode):
        return Walk(problems=(_problem("not-a-directory", "expected a folder of documents", path),))
    walker = _Walker(suffixes, exclude)
    walker.folder(path, ())
    while walker.linked:
        walker.folder(*walker.linked.pop(0))
    return Walk(files=tuple(walker.files), problems=tuple(walker.problems))


def _split_pattern(pattern: str) -> tuple[str, str]:
    """The literal folder a glob starts from, and the relative pattern under it."""
    parts = Path(pattern).parts
    for index, part in enumerate(parts):
        if glob.has_magic(part):
            base = Path(*parts[:index]) if index else Path(".")
            return str(base), str(Path(*parts[index:]))
    return pattern, ""


def expand_pattern(pattern: str) -> list[Path]:
    """The paths a glob matches, sorted, each real path once; ``**`` never follows directory symlinks.

    Hidden entries match only when the pattern spells the dot, as with the shell.
    """
    base, rest = _split_pattern(pattern)
    if not rest:
        return [Path(pattern)] if os.path.lexists(pattern) else []
    found: dict[str, Path] = {}
    explicit_dot = any(part.startswith(".") for part in Path(rest).parts)
    for match in sorted(Path(base).glob(rest)):  # pathlib's ** does not descend into directory symlinks
        relative = match.relative_to(base).parts if base != "." else match.parts
        if not explicit_dot and any(part.startswith(".") for part in relative):
            continue
        found.setdefault(os.path.realpath(match), Path(base, *relative) if base != "." else match)
    return list(found.values())
