"""The event loader: libyaml's event stream built into values, with the line and column of every part.

Built on the parser's event stream (libyaml's C parser when available), never on a
constructor, so no tag is ever executed. Compared with ``yaml.safe_load`` it:

- resolves plain scalars by the YAML 1.2 core schema (:mod:`conformance.documents.plain`):
  ``on``, ``no``, ``yes`` stay strings, and each such YAML 1.1 look-alike is recorded as
  *ambiguous* so linters can warn;
- reports duplicate keys with both locations;
- caps nesting depth, alias count and the expanded node count (alias bombs);
- records the line and column of every value and key by JSON pointer;
- turns every failure into a :class:`~reference_impl.problems.Problem` with line and column.

:func:`conformance.documents.loader.parse_documents` tries the fast path
(:mod:`conformance.documents.fastyaml`) first and comes here for every document it declines.
"""

from __future__ import annotations

from typing import Any

import yaml

from conformance.documents.loader import Limits, problem_at
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
from reference_impl.problems import Problem, pointer_join

_Parser = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_problem = problem_at
_DEFAULT = Limits()
_STANDARD_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}



class _Abort(Exception):
    """Internal: stop building a document and report ``problem``."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem


def _mark(node_mark: Any) -> tuple[int, int]:
    return (node_mark.line + 1, node_mark.column + 1)


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


def parse_events(text: str, path: str, limits: Limits = _DEFAULT) -> tuple[list[YamlDocument], list[Problem]]:
    """Every document in ``text`` and any problems, as :func:`~conformance.documents.loader.parse_documents`
    says, every location recorded as the values are built."""
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
