"""Hostile stdio implementation: answers like the reference, but hangs on the second 'run' of every scenario.

Each scenario costs the runner one step timeout; the run should stop once the same hang repeats
instead of waiting out every scenario.
"""
import time

from reference_loop import encode, serve

runs = 0


def change(request, answer):
    global runs
    runs = 0 if request["cmd"] == "start" else runs + (request["cmd"] == "run")
    if runs == 2:
        time.sleep(3600)
    return encode(answer)


serve(change)
