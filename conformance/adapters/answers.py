"""One answer of the stdio protocol: what its line must be, and a failure in the implementation's terms when it is not.

:func:`read_answer` takes the line read where the answer to a request was awaited and returns
the JSON object, or raises :class:`~conformance.adapters.implementation.ImplementationFailed`
saying what the implementation wrote: a log line on stdout (shown as text, with the advice to
log to stderr), a duplicated key or a lone surrogate (at its JSON pointer), an answer to another
request (which one got no answer), a shape its schema does not allow, an error response.
:func:`hello_info` reads who the implementation is and says what is wrong with its numbers.
The requests in flight (:class:`~conformance.adapters.implementation.InFlight`) name what was
awaited: one request strictly in turn, a range when requests were written ahead.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from conformance.adapters import protocol
from conformance.adapters.implementation import FailureKind, ImplementationFailed, InFlight, Sent
from conformance.adapters.protocol.messages import HelloResponse
from conformance.adapters.protocol.strict import duplicate_key
from conformance.adapters.protocol.wire import PROTOCOL_VERSION, CheckedBodies, Unreadable, check_message, decode
from reference_impl.errors import MalformedDocument
from reference_impl.model import ImplementationInfo

_SHOWN_CHARS = 1000  # of a line quoted in a report: enough for a log line, bounded for a flood
_CONTROL = re.compile("[\x00-\x1f\x7f]")


def shown(raw: bytes) -> str:
    """A line as readable text: as written, control characters and bytes that are no UTF-8 escaped, cut with its length said."""
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}",
                        raw[: _SHOWN_CHARS * 4].decode("utf-8", errors="backslashreplace"))
    if len(text) > _SHOWN_CHARS or len(raw) > _SHOWN_CHARS * 4:
        text = f"{text[:_SHOWN_CHARS]}... ({len(raw):,} bytes in all)"
    return text


def awaiting(in_flight: InFlight) -> str:
    """How a failure names what was awaited: ``while handling 'run'``, or the range written ahead, none answered."""
    if not in_flight.pipelined:
        return f"while handling {in_flight.first.cmd!r}"
    return f"with {in_flight} unanswered (written ahead)"


def answer_to(in_flight: InFlight) -> str:
    """``'run'`` strictly in turn; ``'run' (request 7), the first of ... unanswered`` when written ahead."""
    if not in_flight.pipelined:
        return repr(in_flight.first.cmd)
    return f"{in_flight.first} (the first of {in_flight} unanswered, written ahead)"


def _not_json(error: Unreadable, raw: bytes, in_flight: InFlight) -> ImplementationFailed:
    if error.reason != "not JSON":
        return ImplementationFailed(kind=FailureKind.UNREADABLE_LINE, detail=error.detail,
                                    reason=f"response to {answer_to(in_flight)} is unreadable: {error.reason}")
    logged = not raw.lstrip().startswith((b"{", b"["))
    advice = "\nstdout carries the protocol's answers only: write logs and diagnostics to stderr" if logged else ""
    what = "a line that is not JSON came where the answer to" if logged else "response to"
    return ImplementationFailed(
        kind=FailureKind.UNREADABLE_LINE,
        reason=f"{what} {answer_to(in_flight)}{' was awaited' if logged else ' is not JSON'}",
        detail=f"the line: {shown(raw)}\n{error.detail}{advice}",
    )


def _wrong_id(response_id: Any, in_flight: InFlight, unanswered: Iterable[Sent]) -> ImplementationFailed:
    """An answer to another request: one skipped when it answers a later request in flight."""
    awaited = in_flight.first
    later = next((sent for sent in unanswered if sent.id == response_id and type(response_id) is int), None)
    if later is not None and awaited.id is not None and later.id is not None and later.id > awaited.id:
        return ImplementationFailed(
            kind=FailureKind.WRONG_ID, reason=f"request {awaited.id} ({awaited.cmd!r}) got no answer: "
            f"the next answer is to request {later.id} ({later.cmd!r}), written after it",
            detail="every request gets exactly one answer, in the order the requests came",
        )
    return ImplementationFailed(kind=FailureKind.WRONG_ID,
                                reason=f"response id {response_id!r} does not match request id {awaited.id}",
                                detail=awaiting(in_flight))


def read_answer(raw: bytes, in_flight: InFlight, unanswered: Iterable[Sent] = ()) -> dict[str, Any]:
    """The JSON object on ``raw`` if it answers ``in_flight.first`` (its id, a boolean ``ok``); raises ImplementationFailed.

    ``unanswered`` are the requests written and not answered yet, to name one an answer skipped
    (gone through only then: it may be a generator).
    """
    try:
        doc = decode(raw)
    except Unreadable as error:
        raise _not_json(error, raw, in_flight) from None
    if not isinstance(doc, dict):
        raise ImplementationFailed(kind=FailureKind.SCHEMA, reason=f"response to {answer_to(in_flight)} is not a JSON object",
                                   detail=f"the line: {shown(raw)}")
    response_id = doc.get("id")
    unread = response_id is None and doc.get("ok") is False  # an error about a request it could not read
    if not unread and (type(response_id) is not int or response_id != in_flight.first.id):
        raise _wrong_id(response_id, in_flight, unanswered)
    if not isinstance(doc.get("ok"), bool):
        raise ImplementationFailed(kind=FailureKind.SCHEMA, reason=f"response to {answer_to(in_flight)} has no boolean 'ok'",
                                   detail=f"the line: {shown(raw)}")
    return doc


def check_response(raw: bytes, checked: CheckedBodies, in_flight: InFlight,
                   unanswered: Iterable[Sent] = ()) -> dict[str, Any]:
    """The response on ``raw`` if it answers ``in_flight.first`` correctly; raises ImplementationFailed.

    Its schema (and that no key repeats) is checked once per distinct body (``checked`` remembers the valid ones).
    """
    cmd = in_flight.first.cmd
    doc = read_answer(raw, in_flight, unanswered)
    if cmd == "hello" and doc.get("ok") is True:
        _hello_numbers(doc)
    schema = protocol.response_schema(cmd, doc)
    known = doc.get("id") is not None and checked.known(schema, raw)
    if not known and (pointer := duplicate_key(raw, doc)) is not None:
        raise ImplementationFailed(kind=FailureKind.DUPLICATE_KEY,
                                   reason=f"response to {answer_to(in_flight)} has a key twice in one object",
                                   detail=f"{pointer}: written twice; JSON parsers disagree on which one counts")
    try:
        problems = [] if known else checked.check(schema, doc, raw) if doc.get("id") is not None else check_message(schema, doc)
    except RecursionError:  # parsed, but too deep for the schema check to walk
        raise ImplementationFailed(kind=FailureKind.UNREADABLE_LINE,
                                   reason=f"response to {answer_to(in_flight)} is unreadable: nesting too deep",
                                   detail=f"too deep to check against {schema}") from None
    if problems:
        found = "; ".join(f"{p.pointer or '/'}: {p.message}" for p in problems)
        raise ImplementationFailed(kind=FailureKind.SCHEMA, reason=f"response to {answer_to(in_flight)} does not match {schema}",
                                   detail=found)
    if doc["ok"] is False:
        reported = doc["error"]
        code = f" [{reported['code']}]" if "code" in reported else ""
        raise ImplementationFailed(kind=FailureKind.REFUSED, detail=reported["message"],
                                   reason=f"implementation answered {answer_to(in_flight)} with an error{code}")
    return doc


def _integer_written_as(key: str, value: Any) -> ImplementationFailed | None:
    """A hello number the protocol has as an integer, written otherwise (``64.0``, ``"1.0"``)."""
    if isinstance(value, float) and value.is_integer():
        why = f"{value!r} is written with a fraction; the protocol's integers have none: write {int(value)}"
    elif isinstance(value, str):
        number = PROTOCOL_VERSION if key == "protocol_version" else value if value.isdigit() else "N"
        why = f"{json.dumps(value, ensure_ascii=False)} is a string; write the integer {number}"
    else:
        return None
    kind = FailureKind.PROTOCOL_VERSION if key == "protocol_version" else FailureKind.SCHEMA
    return ImplementationFailed(kind=kind, reason=f"hello's {key} is not an integer", detail=f"/result/{key}: {why}")


def _hello_numbers(doc: dict[str, Any]) -> None:
    """Raise for a version or a depth written ``1.0`` or ``"1"``, saying so (before the schema check's words)."""
    result = doc.get("result")
    for key in ("protocol_version", "pipeline_depth"):
        if isinstance(result, dict) and (failure := _integer_written_as(key, result.get(key))) is not None:
            raise failure


def hello_info(doc: dict[str, Any]) -> tuple[ImplementationInfo, int]:
    """Who the implementation is and the pipeline depth it announces, from its checked hello answer.

    Raises ImplementationFailed for a shape the reader cannot take and for another protocol version.
    """
    _hello_numbers(doc)
    try:
        response = HelloResponse.from_json(doc)
    except MalformedDocument as error:  # the schema check lets through what JSON Schema calls an integer
        raise ImplementationFailed(kind=FailureKind.SCHEMA, reason="response to 'hello' does not match protocol/hello-response",
                                   detail=f"/result/{error.field}: {error.reason}") from None
    if response.protocol_version != PROTOCOL_VERSION:
        raise ImplementationFailed(
            kind=FailureKind.PROTOCOL_VERSION,
            reason=f"protocol version mismatch: the implementation speaks {response.protocol_version}, "
                   f"this runner speaks {PROTOCOL_VERSION}",
        )
    return response.info, response.pipeline_depth
