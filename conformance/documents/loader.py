"""Reading YAML (and JSON) documents safely, remembering where every value came from.

:func:`read_text` reads a file (regular files only, capped, strict UTF-8); :func:`parse_documents`
reads its documents: by the fast path (:mod:`conformance.documents.fastyaml`, yaml-rs) when that
reads a document exactly as the event loader would, with nothing to report; otherwise by the
event loader (:mod:`conformance.documents.events`), which resolves plain scalars by the YAML 1.2
core schema, reports YAML 1.1 look-alikes, duplicate keys and tags, caps nesting, aliases and
expanded nodes, and records the line and column of every value. Either way every failure is a
:class:`~reference_impl.problems.Problem` with line and column, and every document can say where
each part of it was written (:class:`~conformance.documents.yamldoc.YamlDocument`).

JSON is parsed by the same code (JSON is YAML 1.2 for these purposes), so JSON files get
the same duplicate-key checks and locations.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from conformance.documents.fastyaml import fast_value
from conformance.documents.yamldoc import Ambiguous, YamlDocument
from reference_impl.problems import Problem, SourceLocation

__all__ = ["DOCUMENT_SUFFIXES", "Ambiguous", "Limits", "YamlDocument", "load_documents", "load_mapping",
           "parse_documents", "problem_at", "read_text", "refuse_special"]

# The file names PAS reads documents from (manifests, host configs, scenarios).
DOCUMENT_SUFFIXES = (".yaml", ".yml", ".json")


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """Caps that keep memory and time bounded whatever the input."""

    max_bytes: int = 2 * 1024 * 1024
    max_depth: int = 64
    max_aliases: int = 100
    max_nodes: int = 200_000


def problem_at(path: str, code: str, message: str, mark: tuple[int, int] | None, pointer: str = "") -> Problem:
    """A Problem at ``mark`` (line, column) of ``path``, or at the file when there is no mark."""
    line, column = mark if mark else (None, None)
    return Problem(code=code, message=message, pointer=pointer, source=SourceLocation(path=path, line=line, column=column))


_problem = problem_at


def _decode(data: bytes, path: str) -> tuple[str | None, Problem | None]:
    if data.find(b"\x00", 0, 8192) >= 0:
        return None, _problem(path, "not-text", "the file is binary (NUL bytes); expected YAML or JSON text", (1, 1))
    try:
        # The utf-8-sig codec is Python code; plain UTF-8 is C: take it unless there is a BOM to drop.
        return data.decode("utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8"), None
    except UnicodeDecodeError as error:
        before = data[: error.start]
        line = before.count(b"\n") + 1
        column = len(before) - (before.rfind(b"\n") + 1) + 1
        return None, _problem(path, "invalid-utf8", f"invalid UTF-8 byte 0x{data[error.start]:02x}; save the file as UTF-8",
                              (line, column))


def parse_documents(text: str, path: str, limits: Limits = Limits()) -> tuple[list[YamlDocument], list[Problem]]:
    """Parse every document in ``text``; return the documents and any problems.

    A syntax error or a broken limit ends parsing of the stream: documents before it are
    returned, the problem says where parsing stopped. A document the fast path reads
    (:mod:`conformance.documents.fastyaml`) finds its locations when first asked for them.
    """
    value = fast_value(text, max_depth=limits.max_depth, max_nodes=limits.max_nodes)
    if value is not None:
        return [YamlDocument(value=value, path=path, text=text, limits=limits)], []
    from conformance.documents.events import parse_events

    return parse_events(text, path, limits)


_SPECIAL_KINDS = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
                  (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def _special_kind(mode: int) -> str | None:
    return next((name for test, name in _SPECIAL_KINDS if test(mode)), None)


def refuse_special(path: Path | str) -> Problem | None:
    """A ``special-file`` problem when ``path`` is a FIFO, socket or device (never opened), else None.

    Reading a FIFO blocks for ever and reading a device never ends: PAS reads regular files only.
    Missing or unreadable paths are left to the caller (None).
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    kind = None if stat.S_ISREG(mode) else _special_kind(mode)
    if kind is None:
        return None
    return Problem(code="special-file", source=SourceLocation(path=str(path)),
                   message=f"this is {kind}, not a file; PAS reads only regular files, so it was not opened")


# Should a FIFO appear between the stat and the open, opening it cannot hang; os.open's descriptors
# are not inherited by child processes.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


def _read_regular(path: Path | str, limit: int) -> bytes:
    """At most ``limit`` bytes of a regular file; raises OSError (IsADirectoryError for a folder)."""
    descriptor = os.open(path, _OPEN_FLAGS)
    try:
        found = os.fstat(descriptor)
        if stat.S_ISDIR(found.st_mode):
            raise IsADirectoryError(21, "is a folder, not a file", str(path))
        if not stat.S_ISREG(found.st_mode):
            raise OSError(0, "not a regular file", str(path))
        # Ask for one byte past the size first (no 2 MiB buffer for a 4 KiB file), then read on
        # should the file have grown since.
        parts, left, ask = [], limit, min(found.st_size + 1, limit)
        while left > 0 and (chunk := os.read(descriptor, min(ask, left))):
            parts.append(chunk)
            left -= len(chunk)
            ask = 65536
        return b"".join(parts)
    finally:
        os.close(descriptor)


def read_text(path: Path | str, limits: Limits = Limits()) -> tuple[str | None, Problem | None]:
    """The decoded text of a YAML or JSON file, or why not: unreadable, too large, binary, not UTF-8, empty.

    FIFOs, sockets and devices are refused (``special-file``) without being opened.
    """
    name = str(path)
    special = refuse_special(path)
    if special is not None:
        return None, special
    try:
        data = _read_regular(path, limits.max_bytes + 1)
    except OSError as error:
        return None, Problem(code="unreadable", message=f"cannot read the file: {error.strerror or error}",
                             source=SourceLocation(path=name))
    if len(data) > limits.max_bytes:
        return None, _problem(name, "file-too-large",
                              f"the file is larger than {limits.max_bytes} bytes; split it or raise the size limit", (1, 1))
    text, problem = _decode(data, name)
    if text is None:  # then there is a problem
        return None, problem
    if not text.strip():
        return None, _problem(name, "empty-document", "the file is empty; expected a mapping", (1, 1))
    return text, None


def load_documents(path: Path | str, limits: Limits = Limits()) -> tuple[list[YamlDocument], list[Problem]]:
    """Read and parse a YAML or JSON file; unreadable, oversized, binary and empty files are problems."""
    text, problem = read_text(path, limits)
    if problem is not None:
        return [], [problem]
    assert text is not None  # read_text gives the text or a problem
    return parse_documents(text, str(path), limits)


def load_mapping(path: Path | str, limits: Limits = Limits()) -> tuple[YamlDocument | None, list[Problem]]:
    """Load a single-document file whose root must be a mapping."""
    documents, problems = load_documents(path, limits)
    if problems:
        return None, problems
    if not documents:
        return None, [_problem(str(path), "empty-document", "the file holds no document (only comments?); expected a mapping", (1, 1))]
    if len(documents) != 1:
        return None, [_problem(str(path), "multiple-documents",
                               f"expected one document, found {len(documents)}", (documents[1].line, 1))]
    doc = documents[0]
    if not isinstance(doc.value, dict):
        kind = "empty" if doc.value is None else type(doc.value).__name__
        where = doc.where("")
        return None, [_problem(str(path), "not-a-mapping", f"the document root is {kind}; expected a mapping",
                               (where.line or doc.line, where.column or 1))]
    return doc, []
