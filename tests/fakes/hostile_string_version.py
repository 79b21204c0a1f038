"""Hostile stdio implementation: answers hello with ``"protocol_version": "1.0"`` (a string, not the integer 1).

Otherwise it answers like the reference. The report must say what is wrong with protocol_version.
"""
from reference_loop import encode, serve


def change(request, answer):
    if request["cmd"] == "hello":
        answer["result"]["protocol_version"] = "1.0"
    return encode(answer)


serve(change)
