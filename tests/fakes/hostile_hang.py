"""Hostile stdio implementation: answers hello and start, then hangs on 'run'.

Before hanging it starts a child process (its pid goes to stderr) that would outlive it,
to prove the adapter kills the whole process group.
"""
import json
import subprocess
import sys
import time

INFO = {"name": "hostile-hang", "version": "0", "language": "python", "profiles": ["activation"], "protocol_version": 1}

for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] == "run":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        print(f"child pid {child.pid}", file=sys.stderr, flush=True)
        time.sleep(60)
    result = INFO if request["cmd"] == "hello" else {}
    print(json.dumps({"id": request["id"], "ok": True, "result": result}), flush=True)
