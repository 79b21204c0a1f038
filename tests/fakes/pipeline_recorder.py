"""A stdio implementation that answers like the reference and records how far ahead the runner writes.

It announces ``pipeline_depth`` ``PAS_FAKE_DEPTH`` (default 4; 1 announces nothing: strictly in
turn). It reads whatever has arrived, waits ``PAS_FAKE_SETTLE`` seconds (default 0.05) for
requests written in the same go to arrive too, answers them all in order, and writes to the file
``PAS_FAKE_LOG`` the most requests it ever held unanswered. With ``PAS_FAKE_CRASH_AT=N`` it exits
with code 3 on reading the request with id N (before answering anything it holds); with
``PAS_FAKE_CRASH_AHEAD=N`` it exits with code 3 when one read brings it more than N requests.
"""

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
    answers = []
    for line in lines:
        if CRASH_AT and f'"id":{CRASH_AT},'.encode() in line:
            sys.exit(3)
        answers.append(encode(session.answer(line)))
        if session.done:
            break
    sys.stdout.buffer.write(b"".join(answers))
    sys.stdout.buffer.flush()
