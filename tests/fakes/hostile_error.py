"""Hostile stdio implementation: answers hello and start, then 'run' with ok: false."""
import json
import sys

INFO = {"name": "hostile-error", "version": "0", "language": "python", "profiles": ["activation"], "protocol_version": 1}

for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] == "run":
        error = {"message": "run is not implemented yet", "code": "not-implemented"}
        print(json.dumps({"id": request["id"], "ok": False, "error": error}), flush=True)
        continue
    result = INFO if request["cmd"] == "hello" else {}
    print(json.dumps({"id": request["id"], "ok": True, "result": result}), flush=True)
