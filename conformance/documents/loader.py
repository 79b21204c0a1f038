"""Safe YAML (and JSON) loading that remembers where every value came from.

Built on the parser's event stream (libyaml's C parser when available), never on a
constructor, so no tag is ever executed. Compared with ``yaml.safe_load`` it:

- resolves plain scalars by the YAML 1.2 core schema: ``on``, ``no``, ``yes`` stay strings,
  and each such YAML 1.1 look-alike is recorded as *ambiguous* so linters can warn;
- reports duplicate keys with both locations;
- caps file size, nesting depth, alias count and the expanded node count (alias bombs);
- records the line and column of every value and key by JSON pointer;
- turns every failure into a :class:`~reference_impl.problems.Problem` with line and column.

JSON is parsed by the same code (JSON is YAML 1.2 for these purposes), so JSON files get
the same duplicate-key checks and locations.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from conformance.documents.fastyaml import fast_value
from conformance.documents.plain import (
    BOOL,
    FLOAT,
    INT,
    NULL,
    SPECIAL_FLOATS,
    VERSION_LIKE,
    YAML11_BOOLS,
    YAML11_MEANING,
)
from conformance.documents.yamldoc import Ambiguous, YamlDocument
from reference_impl.problems import Problem, SourceLocation, pointer_join

__all__ = ["DOCUMENT_SUFFIXES", "Ambiguous", "Limits", "YamlDocument", "load_documents", "load_mapping",
           "parse_documents", "parse_events", "read_text", "refuse_special"]

_Parser = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# The file names PAS reads documents from (manifests, host configs, scenarios).
DOCUMENT_SUFFIXES = (".yaml", ".yml", ".json")

_STANDARD_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """Caps that keep memory and time bounded whatever the input."""

    max_bytes: int = 2 * 1024 * 1024
    max_depth: int = 64
    max_aliases: int = 100
    max_nodes: int = 200_000


class _Abort(Exception):
    """Internal: stop building a document and report ``problem``."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem


def _mark(node_mark: Any) -> tuple[int, int]:
    return (node_mark.line + 1, node_mark.column + 1)


def _problem(path: str, code: str, message: str, mark: tuple[int, int] | None, pointer: str = "") -> Problem:
    line, column = mark if mark else (None, None)
    return Problem(code=code, message=message, pointer=pointer, source=SourceLocation(path=path, line=line, column=column))


def _scalar(event: yaml.ScalarEvent, path: str, pointer: str, doc: YamlDocument) -> Any:
    text, tag = event.value, event.tag
    mark = _mark(event.start_mark)
    if tag not in (None, "!") and tag not in _STANDARD_TAGS:
        raise _Abort(_problem(path, "yaml-tag", f"tag {tag} is not allowed; remove it or quote the value", mark, pointer))
    plain = not event.style  # libyaml reports plain style as "", the pure parser as None
    if tag == "tag:yaml.org,2002:str" or (not plain and tag is None) or tag == "!":
        return text
    if NULL.match(text) and tag in (None, "tag:yaml.org,2002:null"):
        return None
    if text in BOOL and tag in (None, "tag:yaml.org,2002:bool"):
        return BOOL[text]
    if INT.match(text) and tag in (None, "tag:yaml.org,2002:int"):
        return int(text, 0) if text.lstrip("+-").startswith(("0o", "0x")) else int(text)
    if (FLOAT.match(text) or text.lower() in SPECIAL_FLOATS) and tag in (None, "tag:yaml.org,2002:float"):
        if VERSION_LIKE.match(text):
            doc.ambiguous.append(Ambiguous(pointer=pointer, text=text, line=mark[0], column=mark[1],
                                           reason=f"'{text}' reads as the number {float(text)!r}; quote it"))
        return SPECIAL_FLOATS.get(text.lower(), None) if text.lower() in SPECIAL_FLOATS else float(text)
    if tag is not None:
        raise _Abort(_problem(path, "yaml-tag", f"'{text}' is not a valid {tag.rsplit(':', 1)[-1]}", mark, pointer))
    if YAML11_BOOLS.match(text):
        doc.ambiguous.append(Ambiguous(pointer=pointer, text=text, line=mark[0], column=mark[1],
                                       reason=f"'{text}' is a string here but a boolean in YAML 1.1 tools; "
                                              f"write {YAML11_MEANING[text.lower()]} for a boolean, "
                                              f"or quote it ('{text}') for the word"))
    return text


class _Builder:
    """Turns one document's events into Python values, enforcing the limits."""

    def __init__(self, path: str, limits: Limits, doc: YamlDocument) -> None:
        self.path, self.limits, self.doc = path, limits, doc
        self.locations, self.key_locations = doc.locations, doc.key_locations
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.aliases = 0
        self.nodes = 0

    def count(self, n: int, mark: tuple[int, int], pointer: str) -> None:
        self.nodes += n
        if self.nodes > self.limits.max_nodes:
            raise _Abort(_problem(self.path, "yaml-too-many-nodes",
                                  f"the document expands to more than {self.limits.max_nodes} values "
                                  "(an alias bomb?); simplify it or raise the node limit", mark, pointer))

    def node(self, event: Any, events: Any, pointer: str, depth: int) -> tuple[Any, int]:
        """Build the value starting at ``event``; return it and its expanded node count."""
        mark = _mark(event.start_mark)
        if depth > self.limits.max_depth:
            raise _Abort(_problem(self.path, "yaml-too-deep",
                                  f"nesting deeper than {self.limits.max_depth} levels; flatten the document",
                                  mark, pointer))
        if isinstance(event, yaml.AliasEvent):
            self.aliases += 1
            if self.aliases > self.limits.max_aliases:
                raise _Abort(_problem(self.path, "yaml-too-many-aliases",
                                      f"more than {self.limits.max_aliases} aliases; write the values out",
                                      mark, pointer))
            if event.anchor not in self.anchors:
                raise _Abort(_problem(self.path, "yaml-syntax", f"unknown anchor '{event.anchor}'", mark, pointer))
            value, size = self.anchors[event.anchor]
            self.count(size, mark, pointer)
            self.locations.setdefault(pointer, mark)
            return value, size
        self.locations[pointer] = mark
        if isinstance(event, yaml.ScalarEvent):
            self.count(1, mark, pointer)
            value, size = _scalar(event, self.path, pointer, self.doc), 1
        elif isinstance(event, yaml.SequenceStartEvent):
            value, size = self.sequence(event, events, pointer, depth)
        elif isinstance(event, yaml.MappingStartEvent):
            value, size = self.mapping(event, events, pointer, depth)
        else:  # pragma: no cover - the parser guarantees node events here
            raise _Abort(_problem(self.path, "yaml-syntax", f"unexpected {type(event).__name__}", mark, pointer))
        if getattr(event, "anchor", None):
            self.anchors[event.anchor] = (value, size)
        return value, size

    def _check_tag(self, event: Any, expected: str, pointer: str) -> None:
        if event.tag not in (None, "!", expected):
            raise _Abort(_problem(self.path, "yaml-tag", f"tag {event.tag} is not allowed; remove it",
                                  _mark(event.start_mark), pointer))

    def sequence(self, start: Any, events: Any, pointer: str, depth: int) -> tuple[list[Any], int]:
        self._check_tag(start, "tag:yaml.org,2002:seq", pointer)
        self.count(1, _mark(start.start_mark), pointer)
        items: list[Any] = []
        size = 1
        for event in events:
            if isinstance(event, yaml.SequenceEndEvent):
                return items, size
            value, n = self.node(event, events, pointer_join(pointer, len(items)), depth + 1)
            items.append(value)
            size += n
        raise _Abort(_problem(self.path, "yaml-syntax", "unterminated sequence", _mark(start.start_mark), pointer))

    def mapping(self, start: Any, events: Any, pointer: str, depth: int) -> tuple[dict[Any, Any], int]:
        self._check_tag(start, "tag:yaml.org,2002:map", pointer)
        self.count(1, _mark(start.start_mark), pointer)
        result: dict[Any, Any] = {}
        size = 1
        for event in events:
            if isinstance(event, yaml.MappingEndEvent):
                return result, size
            key_mark = _mark(event.start_mark)
            if not isinstance(event, yaml.ScalarEvent):
                raise _Abort(_problem(self.path, "yaml-complex-key", "mapping keys must be plain strings", key_mark, pointer))
            if event.value == "<<" and not event.style:
                raise _Abort(_problem(self.path, "yaml-merge-key",
                                      "merge keys (<<) are not supported; write the keys out", key_mark, pointer))
            key = event.value if event.style else _scalar(event, self.path, pointer, self.doc)
            if key is None:
                raise _Abort(_problem(self.path, "yaml-null-key",
                                      f"the key '{event.value}' is null, not a name; quote it or remove it",
                                      key_mark, pointer))
            key = key if isinstance(key, str) else str(key).lower() if isinstance(key, bool) else str(key)
            child = pointer_join(pointer, key)
            if key in result:
                first = self.key_locations[child]
                raise _Abort(_problem(self.path, "duplicate-key",
                                      f"key '{key}' appears twice (first at line {first[0]}, column {first[1]}); "
                                      "remove one", key_mark, child))
            self.key_locations[child] = key_mark
            value, n = self.node(next(events), events, child, depth + 1)
            result[key] = value
            size += n
        raise _Abort(_problem(self.path, "yaml-syntax", "unterminated mapping", _mark(start.start_mark), pointer))


def _decode(data: bytes, path: str) -> tuple[str | None, Problem | None]:
    if b"\x00" in data[:8192]:
        return None, _problem(path, "not-text", "the file is binary (NUL bytes); expected YAML or JSON text", (1, 1))
    try:
        return data.decode("utf-8-sig"), None
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
    return parse_events(text, path, limits)


def parse_events(text: str, path: str, limits: Limits = Limits()) -> tuple[list[YamlDocument], list[Problem]]:
    """:func:`parse_documents` by the event loader alone: every location recorded as the values are built."""
    documents: list[YamlDocument] = []
    events = iter(yaml.parse(text, Loader=_Parser))
    try:
        for event in events:
            if isinstance(event, yaml.DocumentStartEvent):
                assert event.start_mark is not None  # the parser marks every event it makes
                doc = YamlDocument(value=None, path=path, index=len(documents), line=event.start_mark.line + 1)
                first = next(events)
                if isinstance(first, yaml.DocumentEndEvent):
                    documents.append(doc)
                    continue
                doc.value, _ = _Builder(path, limits, doc).node(first, events, "", 0)
                documents.append(doc)
    except _Abort as abort:
        return documents, [abort.problem]
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        message = (error.problem or error.context or "syntax error").strip()
        at_tab = mark is not None and 0 <= mark.index < len(text) and text[mark.index] == "\t"
        hint = "; use spaces, not tabs, to indent" if at_tab or "tab" in message.lower() else ""
        start = error.context_mark
        if error.problem and error.context and start is not None and mark is not None and start.line != mark.line:
            # "end of stream" at the last line says little; say where the unclosed quote or bracket began.
            hint += f" ({error.context.strip()} that starts at line {start.line + 1}, column {start.column + 1})"
        return documents, [_problem(path, "yaml-syntax", f"{message}{hint}", _mark(mark) if mark else None)]
    except yaml.reader.ReaderError as error:
        # Raised before scanning, so it carries a character offset rather than a mark.
        before = text[: error.position]
        position = (before.count("\n") + 1, error.position - (before.rfind("\n") + 1) + 1)
        message = f"character #x{error.character:04x} is not allowed in YAML ({error.reason}); remove it"
        return documents, [_problem(path, "yaml-syntax", message, position)]
    except yaml.YAMLError as error:
        return documents, [_problem(path, "yaml-syntax", str(error).strip(), None)]
    return documents, []


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
        kind = _special_kind(os.stat(path).st_mode)
    except OSError:
        return None
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
