"""Hostile stdio implementation: two bugs, answers written a read at a time; the verdicts must not depend on pipelining.

It answers like the reference, except that it rejects every 'disable' (``outcome: rejected``)
and exits with code 3 on reading a 'restart', before writing the answers to the requests read
with it. The first argument is the ``pipeline_depth`` it announces (default 64; 1: strictly
in turn). A runner must give every scenario the same verdict at every depth.
"""
import sys

from reference_loop import encode, serve

DEPTH = int(sys.argv[1]) if len(sys.argv) > 1 else 64


def change(request, answer):
    if request["cmd"] == "restart":
        print("fatal: restart is not implemented", file=sys.stderr, flush=True)
        sys.exit(3)
    if request["cmd"] == "disable" and answer.get("ok"):
        answer["result"] = {"outcome": "rejected", "reason": "disable is not supported"}
    return encode(answer)


serve(change, depth=DEPTH)
