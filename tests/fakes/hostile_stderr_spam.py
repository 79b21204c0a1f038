"""Hostile stdio implementation: writes 256 KiB of logs to stderr before every answer.

It answers hello, start and run correctly (no plugins); on 'restart' it writes its last
words to stderr and exits with code 3.
"""
import json
import sys

INFO = {"name": "hostile-stderr", "version": "0", "language": "python", "profiles": ["activation"], "protocol_version": 1}
SPAM = ("debug: " + "z" * 120 + "\n") * 2048

for line in sys.stdin:
    request = json.loads(line)
    sys.stderr.write(SPAM)
    if request["cmd"] == "restart":
        sys.stderr.write("last words before exit 3\n")
        sys.stderr.flush()
        sys.exit(3)
    result = {"hello": INFO, "run": {"plugins": []}}.get(request["cmd"], {})
    print(json.dumps({"id": request["id"], "ok": True, "result": result}), flush=True)
