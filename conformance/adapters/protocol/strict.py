"""What strict JSON forbids and Python's parser lets through: a key twice in one object, a lone surrogate.

RFC 8259 leaves both to the parser (names SHOULD be unique; an unpaired ``\\ud800`` escape is
grammatical), so two implementations may read one line differently; I-JSON (RFC 7493), which the
protocol's framing follows, forbids both. Each finder returns the JSON pointer of the first
offence, or None; neither raises.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any, Final

import msgspec

_SURROGATE_ESCAPE: Final = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def _step(pointer: str, key: object) -> str:
    return f"{pointer}/{str(key).replace('~', '~0').replace('/', '~1')}"


def first_pointer(value: Any, offends: Callable[[Any], bool]) -> str | None:
    """The JSON pointer of the first value or key in ``value`` (depth first, without recursion) that ``offends``."""
    todo: list[tuple[str, Any]] = [("", value)]
    while todo:
        pointer, item = todo.pop()
        if offends(item):
            return pointer or "/"
        if isinstance(item, dict):
            children: Iterable[tuple[str, Any]] = [(_step(pointer, k), v) for k, v in item.items()]
            bad_key = next((k for k in item if isinstance(k, str) and offends(k)), None)
            if bad_key is not None:
                return _step(pointer, bad_key)
        elif isinstance(item, list):
            children = [(_step(pointer, i), v) for i, v in enumerate(item)]
        else:
            continue
        todo.extend(reversed(list(children)))
    return None


def lone_surrogate(line: bytes, value: Any) -> str | None:
    """Where ``value`` (read from ``line``) holds half of a surrogate pair, not Unicode text; None when nowhere.

    Only a line with a surrogate escape is searched: a pair written as two escapes is read as one
    character, so the search is for what is left alone.
    """
    if _SURROGATE_ESCAPE.search(line) is None:
        return None
    return first_pointer(value, lambda item: isinstance(item, str) and _SURROGATE.search(item) is not None)


_UNREAD: Final[Any] = object()
_ENCODE: Final = msgspec.json.Encoder().encode


def _rewrites_to(value: Any, line: bytes) -> bool:
    """Whether ``value`` written as compact JSON is ``line`` (a value that cannot be written so is not)."""
    try:
        return _ENCODE(value) == line
    except (TypeError, ValueError, OverflowError):
        return False


class _Twice(dict[str, Any]):
    """An object read with a key that came twice (the key, for the pointer)."""

    twice: str = ""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    read: dict[str, Any] = {}
    for key, value in pairs:
        if key in read:
            marked = _Twice(pairs)
            marked.twice = key
            return marked
        read[key] = value
    return read


def duplicate_key(line: bytes, value: Any = _UNREAD) -> str | None:
    """The JSON pointer of the first key written twice in one object of ``line``; None when none is (or it is no JSON).

    ``value``, when given, is ``line`` as read (a repeated key keeps one of its values): if writing it
    back compactly gives ``line`` byte for byte, every key of ``line`` is there once, and nothing need
    be searched. Any other line (spaced, escaped or spelt otherwise) is searched key by key.
    """
    if value is not _UNREAD and _rewrites_to(value, line):
        return None
    try:
        value = json.loads(line, object_pairs_hook=_pairs)
    except (ValueError, RecursionError):
        return None
    where = first_pointer(value, lambda item: isinstance(item, _Twice))
    if where is None:
        return None
    found = value
    for part in where.split("/")[1:] if where != "/" else []:
        key = part.replace("~1", "/").replace("~0", "~")
        found = found[int(key)] if isinstance(found, list) else found[key]
    return _step("" if where == "/" else where, found.twice)
