"""Hostile stdio implementation: leaves a grandchild behind in a session of its own, then answers normally.

On hello it starts a child that starts a grandchild in a new session (``setsid``: out of the
implementation's process group) and exits at once, so the grandchild is an orphan that would
outlive the run. The grandchild's pid is appended, one line per process, to the file named by the first argument.
With ``hang`` as second argument, the implementation then hangs on 'run'.
"""
import json
import subprocess
import sys
import time

INFO = {"name": "hostile-setsid-grandchild", "version": "0", "language": "python", "profiles": ["activation"],
        "protocol_version": 1}
SPAWN = """
import subprocess, sys
grandchild = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
open(sys.argv[1], "a").write(str(grandchild.pid) + chr(10))
"""

for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] == "hello":
        subprocess.run([sys.executable, "-c", SPAWN, sys.argv[1]], check=True)  # the child exits: an orphan is left
    if request["cmd"] == "run" and sys.argv[2:] == ["hang"]:
        time.sleep(60)
    result = INFO if request["cmd"] == "hello" else {"plugins": []} if request["cmd"] == "run" else {}
    print(json.dumps({"id": request["id"], "ok": True, "result": result}), flush=True)
