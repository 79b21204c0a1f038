"""Hostile stdio implementation: a correct handshake that claims no profile PAS knows.

``pas run`` must exit 2 with "nothing to test", not pass with nothing tested.
"""
import json
import sys

INFO = {"name": "hostile-no-profile", "version": "0", "language": "python", "profiles": [], "protocol_version": 1}

for line in sys.stdin:
    request = json.loads(line)
    result = INFO if request["cmd"] == "hello" else {}
    print(json.dumps({"id": request["id"], "ok": True, "result": result}), flush=True)
    if request["cmd"] == "bye":
        break
