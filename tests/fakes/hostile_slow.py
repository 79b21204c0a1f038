"""Hostile stdio implementation: correct answers, slowly, with a helper process of its own.

It answers like the reference (conformance.adapters.serve), but sleeps ``PAS_FAKE_DELAY``
seconds (default 0.3) before every answer. At start-up it starts a child in a new session
(``setsid``: not in its process group) that would outlive it, and writes its own pid and
the child's to the file named by ``PAS_FAKE_PIDS``, so tests can check that stopping the
run leaves no process behind.
"""

import json
import os
import subprocess
import sys
import time

from conformance.adapters.serve import serve

DELAY = float(os.environ.get("PAS_FAKE_DELAY", "0.3"))
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], start_new_session=True)
if os.environ.get("PAS_FAKE_PIDS"):
    with open(os.environ["PAS_FAKE_PIDS"], "w", encoding="utf-8") as pids:
        json.dump({"self": os.getpid(), "child": child.pid}, pids)


def _slowly(stream):
    """The lines of ``stream``, each after a pause."""
    for line in stream:
        time.sleep(DELAY)
        yield line


sys.exit(serve(_slowly(sys.stdin.buffer), sys.stdout.buffer))
