"""Broken on purpose (transport): the reference over stdio behind a reader that mishandles partial lines.

The classic bug of a reader fed by ``data`` events (Node.js) or raw ``read()`` calls: each read
is taken to hold whole lines. By default the unfinished end of every read is dropped, so a
request that arrives in several reads is lost (the runner times out) or only its last part is
read (answered as invalid JSON). With ``--decode-per-read`` the reader keeps partial lines but
decodes each read as UTF-8 on its own, so a character cut between two reads turns into two
U+FFFD. Lines that arrive whole in one read are answered as the reference does, so only the
transport scenarios (conformance/suite/scenarios/transport/) fail.

    pas run --impl 'cmd:python tests/fakes/transport_bad_reader.py [--decode-per-read]'

Breaks: none: a transport bug (hostile)
"""

from __future__ import annotations

import os
import sys

from conformance.adapters.protocol.wire import encode
from conformance.adapters.serve import Session

CHUNK = 65536


def lines_dropping_partial_ends() -> object:
    """Each read's complete lines; what follows the read's last line feed is dropped (the bug)."""
    while chunk := os.read(0, CHUNK):
        yield chunk.split(b"\n")[:-1]


def lines_decoded_per_read() -> object:
    """Each read decoded on its own, lines joined across reads as text (the bug: a cut character is lost)."""
    rest = ""
    while chunk := os.read(0, CHUNK):
        lines = (rest + chunk.decode("utf-8", errors="replace")).split("\n")
        rest = lines.pop()
        yield [line.encode("utf-8") for line in lines]


def main() -> int:
    """Serve the reference through the broken reader chosen on the command line."""
    session = Session(text=True, pipeline_depth=1)
    reads = lines_decoded_per_read() if "--decode-per-read" in sys.argv[1:] else lines_dropping_partial_ends()
    for lines in reads:
        for line in lines:
            if line.strip():
                sys.stdout.buffer.write(encode(session.answer(line)))
                sys.stdout.buffer.flush()
            if session.done:
                return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
