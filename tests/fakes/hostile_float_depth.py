"""Hostile stdio implementation: announces ``"pipeline_depth": 64.0`` (a float where the protocol has an integer).

Otherwise it answers like the reference. The report must say that pipeline_depth is not an
integer, not name an exception of the runner.
"""
from reference_loop import encode, serve


def change(request, answer):
    if request["cmd"] == "hello":
        answer["result"]["pipeline_depth"] = 64
        return encode(answer).replace(b'"pipeline_depth":64', b'"pipeline_depth":64.0')
    return encode(answer)


serve(change, depth=64)
