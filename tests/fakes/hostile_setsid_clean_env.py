"""Hostile stdio implementation: leaves a daemon behind with a cleared environment and a session of its own.

On hello it double-forks: the middle process calls setsid and exits, the grandchild replaces
itself with a sleeper started with an empty environment and its stdio on /dev/null (a daemon
that carries no mark of the run). The grandchild's pid is appended to the file named by the
first argument. With ``hang`` as second argument it then hangs on 'run', with ``crash`` it exits
there (its daemon is then re-parented to the runner). Otherwise it answers like the reference.
Nothing of it may outlive the run.
"""
import os
import sys
import time

from reference_loop import encode, serve

PID_FILE = sys.argv[1]
SLEEPER = [sys.executable, "-c", "import time; time.sleep(60)"]


def daemon() -> None:
    middle = os.fork()
    if middle:
        os.waitpid(middle, 0)
        return
    os.setsid()
    started, exec_done = os.pipe()  # not inherited across exec: it reads end of file once the sleeper runs
    grandchild = os.fork()
    if grandchild == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.execve(sys.executable, SLEEPER, {})
    os.close(exec_done)
    os.read(started, 1)
    with open(PID_FILE, "a", encoding="utf-8") as pids:
        pids.write(f"{grandchild}\n")
    os._exit(0)


def change(request, answer):
    if request["cmd"] == "hello":
        daemon()
    if request["cmd"] == "run" and sys.argv[2:] == ["hang"]:
        time.sleep(60)
    if request["cmd"] == "run" and sys.argv[2:] == ["crash"]:
        sys.exit(3)
    return encode(answer)


serve(change)
