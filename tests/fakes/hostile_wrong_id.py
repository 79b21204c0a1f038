"""Hostile stdio implementation: answers every request with the wrong id (id + 1)."""
import json
import sys

INFO = {"name": "hostile-wrong-id", "version": "0", "language": "python", "profiles": ["activation"], "protocol_version": 1}

for line in sys.stdin:
    request = json.loads(line)
    result = INFO if request["cmd"] == "hello" else {}
    print(json.dumps({"id": request["id"] + 1, "ok": True, "result": result}), flush=True)
