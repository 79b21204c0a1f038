"""Hostile stdio implementation: answers hello and start, then 'run' with ok: false.

It says on stderr what it does: a line when it starts, and one for each run it refuses (a
refusal's detail shows only what came after the answer before it).
"""
import json
import sys

INFO = {"name": "hostile-error", "version": "0", "language": "python", "profiles": ["activation"], "protocol_version": 1}

print("hostile-error: up", file=sys.stderr, flush=True)
for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] == "run":
        print(f"hostile-error: refusing request {request['id']}", file=sys.stderr, flush=True)
        error = {"message": "run is not implemented yet", "code": "not-implemented"}
        print(json.dumps({"id": request["id"], "ok": False, "error": error}), flush=True)
        continue
    result = INFO if request["cmd"] == "hello" else {}
    print(json.dumps({"id": request["id"], "ok": True, "result": result}), flush=True)
