"""Requests the reference server has read before, by their body: a line that repeats one but for its id is not read again.

A runner sends the same requests again and again under new ids (``{"id":7,"cmd":"run"}``,
``{"id":8,"cmd":"run"}``; a scenario's ``start`` each time it runs). Once a line has been read,
checked against its schema and turned into a request, a later line with the same bytes after
the id and a plainly written positive id (``{"id":` `` digits ``,``) is the same JSON with
another id: its request is taken from here, and the answer carries the new id. A body that
might hold a second ``id`` key (the bytes ``"id"`` or any ``\\u`` escape in it) is never kept,
so the id a line is answered under is always the one a JSON parser reads from it.
"""

from __future__ import annotations

import re
from typing import Any, Final

from conformance.adapters.protocol.wire import body_key

_PLAIN_ID: Final = re.compile(rb'\{"id":([1-9][0-9]{0,17}),')  # a positive integer, as JSON writes it, below 2**63
_KEPT: Final = 4096  # requests at most (then it starts over) ...
_KEPT_BYTES: Final = 32 * 1024 * 1024  # ... read from at most this many bytes of lines


class KnownRequests:
    """The requests read so far (at most :data:`_KEPT`, from at most :data:`_KEPT_BYTES` of lines), by body."""

    def __init__(self) -> None:
        self._requests: dict[bytes, Any] = {}
        self._bytes = 0

    def get(self, line: bytes) -> tuple[int, Any] | None:
        """The id of ``line`` and the request its body was read as before; None when it was not (or cannot be told)."""
        found = _PLAIN_ID.match(line)
        if found is None:
            return None
        key = body_key(line)
        request = self._requests.get(key) if key is not None else None
        return None if request is None else (int(found[1]), request)

    def add(self, line: bytes, request_id: int, request: Any) -> None:
        """Keep ``request``, read from ``line`` (whose id JSON reads as ``request_id``), for the lines that repeat its body."""
        found = _PLAIN_ID.match(line)
        if found is None or int(found[1]) != request_id:
            return
        body = line[found.end() - 1:]
        key = body_key(line)
        if key is None or b'"id"' in body or b"\\u" in body:
            return
        if len(self._requests) >= _KEPT or self._bytes + len(line) > _KEPT_BYTES:
            self._requests.clear()
            self._bytes = 0
        self._requests[key] = request
        self._bytes += len(line)
