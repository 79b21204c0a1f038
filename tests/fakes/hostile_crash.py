"""Hostile stdio implementation: answers hello and start, then crashes on 'run' (exit code 3)."""
import json
import sys

INFO = {"name": "hostile-crash", "version": "0", "language": "python", "profiles": ["activation"], "protocol_version": 1}

for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] == "run":
        print("fatal: simulated crash in run", file=sys.stderr, flush=True)
        sys.exit(3)
    result = INFO if request["cmd"] == "hello" else {}
    print(json.dumps({"id": request["id"], "ok": True, "result": result}), flush=True)
