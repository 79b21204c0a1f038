"""PAS stdio protocol v1, the wire: framing, field readers and schema checks shared by every message.

One message is one compact UTF-8 JSON object on one line. The request and response class
of each wire command are declared with :func:`request_class` and :func:`response_class`,
which set its ``cmd`` and its schema ``protocol/<cmd>-request`` / ``protocol/<cmd>-response``
(spec/schemas/). :func:`check_message` checks a message against its schema;
:class:`MessageInvalid` carries what it found. :func:`decode` reads one line and says in
:class:`Unreadable` why it could not.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Final, TypeVar, dataclass_transform

import msgspec

from conformance.adapters.protocol.strict import lone_surrogate
from reference_impl.errors import MalformedDocument, PasError
from reference_impl.problems import Problem

PROTOCOL_VERSION: Final = 1


class Message:
    """What :func:`request_class` and :func:`response_class` give a message class: its ``cmd`` and ``schema``."""

    __slots__ = ()
    cmd: ClassVar[str]
    schema: ClassVar[str]


_M = TypeVar("_M", bound=Message)


class MessageInvalid(PasError, ValueError):
    """A message does not match its protocol schema; ``problems`` say where and why."""

    def __init__(self, *, schema: str, problems: Sequence[Problem]) -> None:
        self.schema = schema
        self.problems = tuple(problems)
        found = "; ".join(f"{p.pointer or '/'}: {p.message}" for p in self.problems)
        super().__init__(f"message does not match {schema}: {found}")


def get_field(doc: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    """``doc[key]``; raises MalformedDocument when it is missing or not of ``kind`` (a bool is no int)."""
    value = doc.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise MalformedDocument(field=key, reason="is missing or has the wrong type")
    return value


def message_id(doc: Mapping[str, Any], cmd: str | None = None) -> int:
    """The id of a message (of a ``cmd`` request, when given); raises MalformedDocument when it has none."""
    if cmd is not None and doc.get("cmd") != cmd:
        raise MalformedDocument(field="cmd", reason=f"must be {cmd!r}")
    value = get_field(doc, "id", int)
    if value < 1:
        raise MalformedDocument(field="id", reason="must be a positive integer")
    return value


def schema_name(cmd: str, direction: str) -> str:
    """The schema of wire command ``cmd``'s ``request`` or ``response``: ``protocol/<cmd>-<direction>``."""
    return f"protocol/{cmd}-{direction}"


def _message_class(cmd: str, direction: str) -> Callable[[type[_M]], type[_M]]:
    def declare(cls: type[_M]) -> type[_M]:
        cls.cmd = cmd
        cls.schema = schema_name(cmd, direction)
        return dataclass(frozen=True, slots=True, kw_only=True)(cls)

    return declare


@dataclass_transform(kw_only_default=True, frozen_default=True)
def request_class(cmd: str) -> Callable[[type[_M]], type[_M]]:
    """Declare the request class (a :class:`Message`) of wire command ``cmd``: a frozen, slotted, keyword-only dataclass."""
    return _message_class(cmd, "request")


@dataclass_transform(kw_only_default=True, frozen_default=True)
def response_class(cmd: str) -> Callable[[type[_M]], type[_M]]:
    """Declare the response class (a :class:`Message`) of wire command ``cmd``: a frozen, slotted, keyword-only dataclass."""
    return _message_class(cmd, "response")


def check_message(schema: str, doc: Any) -> list[Problem]:
    """Every way ``doc`` breaks the protocol schema ``schema`` (e.g. ``protocol/run-request``)."""
    from conformance.documents.loader import YamlDocument
    from conformance.documents.schemas import check_against

    problems = check_against(schema, YamlDocument(value=doc, path="<message>"))
    return [replace(p, code="protocol-schema", source=None) for p in problems]


class Unreadable(PasError, ValueError):
    """A protocol line that holds no JSON value this protocol can read.

    ``reason`` says why in a few words: ``not JSON`` (bad UTF-8 or JSON, NaN, infinity),
    ``nesting too deep`` (deeper than Python's recursion limit), ``integer too large``
    (more digits than Python's int-str limit) or ``lone surrogate`` (a string that is no Unicode
    text); ``detail`` is the parser's own message (for a lone surrogate: where it is).
    """

    def __init__(self, *, reason: str, detail: str) -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(detail if reason == "not JSON" else f"{reason}: {detail}")


class CheckedBodies:
    """Remembers message bodies found valid, so that a body seen again is not checked again.

    Most messages of a suite repeat but for their id (a ``run`` in the same state, a ``start``
    with the same plugins). The body is the line after the id: ``{"id":7,"ok":...}`` and
    ``{"id":8,"ok":...}`` share it. Only a line whose id the caller has already found to be a
    positive integer may be passed to :meth:`check`: the cache stands for the rest of the line.
    A body of at most :data:`_RAW_KEY` bytes is its own key (hashing it is cheaper than a digest);
    a longer one is keyed by its 16-byte BLAKE2b digest; at most ``limit`` keys (then it starts over).
    """

    def __init__(self, limit: int = 4096) -> None:
        self._limit = limit
        self._valid: set[tuple[str, bytes]] = set()

    def known(self, schema: str, line: bytes) -> bool:
        """Whether ``line``'s body was found valid against ``schema`` before (then nothing need check it again)."""
        key = self._key(schema, line)
        return key is not None and key in self._valid

    @staticmethod
    def _key(schema: str, line: bytes) -> tuple[str, bytes] | None:
        body = body_key(line)
        return None if body is None else (schema, body)

    def check(self, schema: str, doc: Any, line: bytes) -> list[Problem]:
        """:func:`check_message` of ``doc``, read from ``line`` — or ``[]`` at once for a body already found valid."""
        key = self._key(schema, line)
        if key is not None and key in self._valid:
            return []
        problems = check_message(schema, doc)
        if key is not None and not problems:
            if len(self._valid) >= self._limit:
                self._valid.clear()
            self._valid.add(key)
        return problems


#: Bodies up to this size are cached as they are (at most 4096 of them: 16 MiB), longer ones by digest.
_RAW_KEY: Final = 4096


def body_key(line: bytes) -> bytes | None:
    """What stands for the body of a line that begins ``{"id":``: the rest of the line from the comma after
    the id, itself when at most :data:`_RAW_KEY` bytes long, else its 16-byte BLAKE2b digest; None for any other line.
    """
    if line.startswith(b'{"id":') and (comma := line.find(b",", 6)) > 0:
        if len(line) - comma <= _RAW_KEY:
            return line[comma:]
        return hashlib.blake2b(memoryview(line)[comma:], digest_size=16).digest()
    return None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# One decoder and one encoder for every line: json.loads and json.dumps with options build a new one per call.
_DECODER: Final = json.JSONDecoder(parse_constant=_reject_constant)
_ENCODER: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
# msgspec (C) reads and writes a message in about a fifth of the instructions the standard library takes.
# Whatever it refuses (a lone surrogate, 1e400, too deep, a BOM, more digits than Python reads ...) goes to
# the standard library, which takes it or says why in the words above, so the rules stay as they were.
_FAST_DECODE: Final = msgspec.json.Decoder().decode
_FAST_ENCODE: Final = msgspec.json.Encoder().encode
_PROBE: Final = msgspec.msgpack.Encoder().encode  # a float shows as byte 0xcb in MessagePack


def _parse(text: str) -> Any:
    if text.startswith("\ufeff"):  # as json.loads says it
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    return _DECODER.decode(text)


def decode(line: bytes) -> Any:
    """The JSON value on one protocol line; raises Unreadable (a ValueError) when there is none.

    A string holding half of a surrogate pair (an unpaired ``\\ud800`` escape) is no Unicode text: unreadable too.
    """
    try:
        return _FAST_DECODE(line)  # refuses a lone surrogate (and a key twice it keeps silently: see answers.py)
    except (ValueError, RecursionError):
        pass  # the standard library decides, and says why
    try:
        value = _parse(str(line, "utf-8"))
    except RecursionError:
        raise Unreadable(reason="nesting too deep",
                         detail=f"arrays or objects nested deeper than about {sys.getrecursionlimit()} levels") from None
    except ValueError as error:
        if "integer string conversion" in str(error):  # Python's int-str limit (CVE-2020-10735)
            raise Unreadable(reason="integer too large", detail=str(error)) from None
        raise Unreadable(reason="not JSON", detail=str(error)) from None
    if (where := lone_surrogate(line, value)) is not None:
        raise Unreadable(reason="lone surrogate", detail=f"{where}: a string holds half of a surrogate pair "
                         "(a \\ud800-\\udfff escape without its partner), which is no Unicode character")
    return value


def encode(doc: Mapping[str, Any]) -> bytes:
    """One protocol line: compact UTF-8 JSON and a newline; raises ValueError for NaN or infinity.

    A message holding a float (rare: no protocol field is one), an integer past 64 bits or a lone
    surrogate is written by the standard library, which refuses NaN and infinity (msgspec would
    write null), spells floats as it always has and raises UnicodeEncodeError for the surrogate.
    """
    try:
        slow = b"\xcb" in _PROBE(doc)
    except (OverflowError, TypeError, ValueError):  # an integer past 64 bits, a lone surrogate ...: as before
        slow = True
    if slow:
        return _ENCODER.encode(doc).encode("utf-8") + b"\n"
    return _FAST_ENCODE(doc) + b"\n"
