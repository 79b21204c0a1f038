"""The one way PAS finds document files: in a folder, recursively, sorted, each file once.

Every tool that reads a folder of documents uses :func:`walk_folder`: the scenario loader
directly, and ``pas validate``, ``pas simulate``, ``pas budget``, ``pas host plan`` and ``pas
config explain`` through :func:`collect_targets` and the one set loader
(:mod:`conformance.documents.sets`), so one folder gives one answer everywhere:

- recursive, sorted by name at each level (files and folders together, depth first);
- hidden entries (``.git``, ``.x.yaml``) and vendored folders (``node_modules`` ...) skipped;
- directory symlinks followed after the real folders, but each real folder visited once: a
  link to ``.``, to ``..`` or to any folder already walked is not followed (``symlink-cycle``,
  a warning);
- each real file listed once, however many links lead to it;
- FIFOs, sockets and devices refused (``special-file``), never opened;
- a folder that cannot be listed is an error (``unreadable``).

:func:`expand_pattern` is the glob counterpart: ``**`` never follows directory symlinks.
:func:`collect_targets` turns what a user typed (files, folders, globs) into the files to read,
with one answer for every command: a missing path, a glob matching nothing and a folder
holding no document file are ``path-not-found``.
"""

from __future__ import annotations

import glob
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from conformance.documents.kinds import Kind
from conformance.documents.loader import DOCUMENT_SUFFIXES, refuse_special
from reference_impl.problems import Problem, Severity, SourceLocation

SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "site-packages"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Walk:
    """The document files found under one folder, in order, and what went wrong on the way."""

    files: tuple[Path, ...] = ()
    problems: tuple[Problem, ...] = ()
    real_paths: tuple[str, ...] = ()  # each file's real path (symlinks resolved), in the order of ``files``


def _problem(code: str, message: str, path: Path | str, severity: Severity = Severity.ERROR) -> Problem:
    return Problem(code=code, message=message, severity=severity, source=SourceLocation(path=str(path)))


def _wanted(name: str, suffixes: tuple[str, ...], exclude: frozenset[str]) -> bool:
    return not name.startswith(".") and name.lower().endswith(suffixes) and name not in exclude


class _Walker:
    """One walk: the real folders and files seen so far, the files found, the problems."""

    def __init__(self, suffixes: tuple[str, ...], exclude: frozenset[str]) -> None:
        self.suffixes, self.exclude = suffixes, exclude
        self.folders: set[str] = set()
        self.seen: dict[str, Path] = {}  # real path: the path it was found under
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
        """One entry of the folder whose real path is ``ancestors[-1]``."""
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
        path = Path(entry.path)
        try:
            regular, linked = entry.is_file(), entry.is_symlink()  # from the listing: no system call for a plain file
        except OSError:
            regular, linked = False, True
        problem = None if regular else refuse_special(path)
        if problem is not None:
            self.problems.append(problem)
            return
        # A plain entry's real path is its folder's, joined; only a link needs resolving.
        self.seen.setdefault(os.path.realpath(path) if linked else os.path.join(ancestors[-1], entry.name), path)


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
    return Walk(files=tuple(walker.seen.values()), problems=tuple(walker.problems), real_paths=tuple(walker.seen))


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


@dataclass(frozen=True, slots=True, kw_only=True)
class Target:
    """One file to read.

    ``explicit`` when the user named it (on the command line or by a glob): a document in it
    that is not a PAS document is reported, where one found in a folder is skipped silently.
    ``expect`` is the kind a file given for one role must be (``--host``: a host config).
    """

    path: str
    explicit: bool = True
    expect: Kind | None = None


def collect_targets(paths: Iterable[str | Path | Target]) -> tuple[list[Target], list[Problem]]:
    """Expand files, folders (walked by :func:`walk_folder`) and globs into targets, each real file once.

    A :class:`Target` is taken as a file, as given (not walked, not a glob). A file named by the
    user replaces the same file found in a folder. A missing path, a glob matching nothing and a folder holding no document file are
    ``path-not-found``; folders that cannot be listed are ``unreadable`` and FIFOs, sockets and
    devices ``special-file`` (never opened); a directory link back into a folder already walked
    is a ``symlink-cycle`` warning. Never raises for bad input.
    """
    targets: dict[str, Target] = {}
    problems: list[Problem] = []
    folders: dict[str, str] = {}  # real paths of the folders of files named one by one
    for path in paths:
        raw = path.path if isinstance(path, Target) else str(path)
        if isinstance(path, Target):
            found = [(path, real) for _, real in _explicit(raw, problems, folders)]
        elif _plain_file(raw):  # the usual case, told by one system call where the general way takes four
            found = [(Target(path=raw), _real_file(raw, folders, link=False))]
        elif os.path.isdir(raw):
            found = _walk(raw, problems)
        elif os.path.lexists(raw) or not glob.has_magic(raw):
            found = _explicit(raw, problems, folders)
        else:
            found = _expand_glob(raw, problems, folders)
        for target, real in found:
            if real not in targets or target.explicit:  # named on the command line wins over found in a folder
                targets[real] = target
    return list(targets.values()), problems


_Found = list[tuple[Target, str]]  # targets with their real paths


def _explicit(raw: str, problems: list[Problem], folders: dict[str, str]) -> _Found:
    try:
        mode = os.stat(raw).st_mode
    except (OSError, ValueError):
        problems.append(_problem("path-not-found", "no such file or directory", raw))
        return []
    special = None if stat.S_ISREG(mode) else refuse_special(raw)
    if special is not None:
        problems.append(special)
        return []
    return [(Target(path=raw), _real_file(raw, folders))]


def _plain_file(raw: str) -> bool:
    """Whether ``raw`` names a regular file itself (not a symbolic link, a folder or a special file)."""
    try:
        return stat.S_ISREG(os.lstat(raw).st_mode)
    except (OSError, ValueError):
        return False


def _real_file(path: str, folders: dict[str, str], *, link: bool | None = None) -> str:
    """``os.path.realpath(path)``, resolving each folder once (``folders``: the real folders found so far).

    ``link`` False: the caller knows ``path`` names no symbolic link (None: find out).
    """
    folder, name = os.path.split(path)
    if name in ("", ".", "..") or link is not False and os.path.islink(path):
        return os.path.realpath(path)
    real = folders.get(folder)
    if real is None:
        real = folders[folder] = os.path.realpath(folder or os.curdir)
    return os.path.join(real, name)


def _expand_glob(pattern: str, problems: list[Problem], folders: dict[str, str]) -> _Found:
    found: _Found = []
    for match in expand_pattern(pattern):
        if match.is_dir():
            found.extend(_walk(str(match), problems))
        elif match.is_file():
            found.append((Target(path=str(match)), _real_file(str(match), folders)))
        else:
            found.extend(_explicit(str(match), problems, folders))
    if not found and not problems:
        problems.append(_problem("path-not-found", "the pattern matches no YAML or JSON file", pattern))
    return found


def _walk(root: str, problems: list[Problem]) -> _Found:
    """The documents under ``root``; a folder holding none is ``path-not-found``."""
    walk = walk_folder(root)
    problems.extend(walk.problems)
    if not walk.files and not any(p.severity is Severity.ERROR for p in walk.problems):
        problems.append(_problem("path-not-found", f"the folder holds no YAML or JSON file "
                                 f"({', '.join(DOCUMENT_SUFFIXES)}); check the path", root))
    return [(Target(path=str(path), explicit=False), real) for path, real in zip(walk.files, walk.real_paths)]
