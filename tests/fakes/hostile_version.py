"""Hostile stdio implementation: claims protocol version 2 in its hello answer."""
import json
import sys

INFO = {"name": "hostile-version", "version": "0", "language": "python", "profiles": ["activation"], "protocol_version": 2}

for line in sys.stdin:
    request = json.loads(line)
    result = INFO if request["cmd"] == "hello" else {}
    print(json.dumps({"id": request["id"], "ok": True, "result": result}), flush=True)
