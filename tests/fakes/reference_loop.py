"""The loop the hostile stdio fakes share: the reference's answers, changed where a fake breaks them.

Not an implementation itself (bench/fuzz_finds.py skips it). :func:`serve` reads what has
arrived on stdin, answers each request like ``pas serve-reference`` and hands every answer to the
fake's ``change(request, answer)``, which returns the bytes to write for it (``b""`` for none) or
exits the process; the answers to one read are written together, as the implementer's guide
recommends. ``depth`` is the ``pipeline_depth`` announced in hello (1: announce nothing).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conformance.adapters.protocol.wire import encode
from conformance.adapters.serve import Session

Change = Callable[[dict[str, Any], dict[str, Any]], bytes]


def unchanged(request: dict[str, Any], answer: dict[str, Any]) -> bytes:
    """The reference's own answer line."""
    del request
    return encode(answer)


def serve(change: Change = unchanged, *, depth: int = 1, profiles: list[str] | None = None,
          name: str | None = None, after_each_read: Callable[[], None] | None = None) -> None:
    """Answer stdin until bye or end of input; ``profiles`` and ``name`` (default: the fake's file name) replace
    the reference's in hello.

    ``after_each_read`` is called once the answers to one read are written.
    """
    session = Session(pipeline_depth=depth)
    name = Path(sys.argv[0]).stem if name is None else name
    fd, rest = sys.stdin.fileno(), b""
    while not session.done and (chunk := os.read(fd, 65536)):
        *lines, rest = (rest + chunk).split(b"\n")
        out = []
        for line in lines:
            request = json.loads(line)
            answer = session.answer(line)
            if request.get("cmd") == "hello" and answer.get("ok"):
                answer["result"].update({k: v for k, v in (("profiles", profiles), ("name", name)) if v is not None})
                if depth == 1:
                    answer["result"].pop("pipeline_depth", None)
            out.append(change(request, answer))
            if session.done:
                break
        sys.stdout.buffer.write(b"".join(out))
        sys.stdout.buffer.flush()
        if after_each_read is not None:
            after_each_read()
