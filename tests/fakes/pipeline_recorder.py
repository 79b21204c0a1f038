"""A stdio implementation that answers like the reference and records how far ahead the runner writes.

It announces ``pipeline_depth`` ``PAS_FAKE_DEPTH`` (default 4; 1 announces nothing: strictly in
turn). It reads whatever has arrived, waits ``PAS_FAKE_SETTLE`` seconds (default 0.05) for
requests written in the same go to arrive too, answers them all in order, and writes to the file
``PAS_FAKE_LOG`` the most requests it ever held unanswered. With ``PAS_FAKE_CRASH_AT=N`` it exits
with code 3 on reading the request with id N (before answering anything it holds); with
``PAS_FAKE_CRASH_AHEAD=N`` it exits with code 3 when one read brings it more than N requests.
With ``PAS_FAKE_READS`` it appends to that file, for each read, the ids of the requests it brought
(one line per read); with ``PAS_FAKE_STDERR`` it writes ``handling request N`` to stderr for each
request before answering it; with ``PAS_FAKE_BAD_AT=N`` it answers request N with a result that
is no observation (schema-invalid).
"""

import json
import os
import select
import sys
import time

from conformance.adapters.protocol.wire import encode
from conformance.adapters.serve import Session

DEPTH = int(os.environ.get("PAS_FAKE_DEPTH", "4"))
SETTLE = float(os.environ.get("PAS_FAKE_SETTLE", "0.05"))
CRASH_AT = os.environ.get("PAS_FAKE_CRASH_AT")
CRASH_AHEAD = int(os.environ.get("PAS_FAKE_CRASH_AHEAD", "0"))
LOG = os.environ.get("PAS_FAKE_LOG")
READS = os.environ.get("PAS_FAKE_READS")
STDERR = bool(os.environ.get("PAS_FAKE_STDERR"))
BAD_AT = int(os.environ.get("PAS_FAKE_BAD_AT", "0"))

session = Session(pipeline_depth=DEPTH)
fd, rest, most = sys.stdin.fileno(), b"", 0
while not session.done:
    chunk = os.read(fd, 65536)
    if not chunk:
        break
    time.sleep(SETTLE)
    while select.select([fd], [], [], 0)[0] and (more := os.read(fd, 65536)):
        chunk += more
    *lines, rest = (rest + chunk).split(b"\n")
    most = max(most, len(lines))
    if CRASH_AHEAD and len(lines) > CRASH_AHEAD:
        sys.exit(3)
    if LOG:
        with open(LOG, "w", encoding="utf-8") as log:
            log.write(str(most))
    ids = [json.loads(line).get("id") if line.strip() else None for line in lines]
    answers = []
    for line, request_id in zip(lines, ids):
        if CRASH_AT and f'"id":{CRASH_AT},'.encode() in line:
            sys.exit(3)
        if STDERR:
            print(f"handling request {request_id}", file=sys.stderr, flush=True)
        answer = session.answer(line)
        answers.append(encode({"id": request_id, "ok": True, "result": "bad"} if request_id == BAD_AT else answer))
        if session.done:
            break
    if READS:  # after its stderr lines: once a read is listed here, what it wrote about it is in the pipe
        with open(READS, "a", encoding="utf-8") as reads:
            reads.write(" ".join(map(str, ids)) + "\n")
    sys.stdout.buffer.write(b"".join(answers))
    sys.stdout.buffer.flush()
