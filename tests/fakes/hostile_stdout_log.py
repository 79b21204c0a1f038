"""Hostile stdio implementation: takes requests ahead (pipeline_depth 64) and logs on stdout when it restarts.

On 'restart' it prints ``INFO restarting the scheduler`` on stdout (where only answers may go)
before the answer. The report must say a line that is not JSON came where an answer was
awaited, show it as text, and tell to log to stderr.
"""
from reference_loop import encode, serve


def change(request, answer):
    log = b"INFO restarting the scheduler\n" if request["cmd"] == "restart" else b""
    return log + encode(answer)


serve(change, depth=64)
