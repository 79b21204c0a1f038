"""Hostile stdio implementation: answers 'run' with a view whose state is not a PAS state."""
import json
import sys

INFO = {"name": "hostile-schema", "version": "0", "language": "python", "profiles": ["activation"], "protocol_version": 1}
BAD_VIEW = {"module_name": "weather", "state": "awake", "rounds_left": None, "hint": False,
            "brief_shown": False, "methods_shown": True, "injection_called": False}

for line in sys.stdin:
    request = json.loads(line)
    result = {"hello": INFO, "run": {"plugins": [BAD_VIEW]}}.get(request["cmd"], {})
    print(json.dumps({"id": request["id"], "ok": True, "result": result}), flush=True)
