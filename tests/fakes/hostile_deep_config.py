"""Hostile host: answers 'host-read-config' with a configuration nested 600 mappings deep.

Otherwise it answers like the reference (it claims the host profile only). The report must
name how deep the answer is, not an exception of the runner.
"""
from reference_loop import encode, serve

DEPTH = 600


def change(request, answer):
    if request["cmd"] != "host-read-config" or not answer.get("ok"):
        return encode(answer)
    answer["result"]["config"]["deep"] = "DEEP"
    deep = b'{"a":' * DEPTH + b"{}" + b"}" * DEPTH  # written by hand: json.dumps may reach Python's recursion limit
    return encode(answer).replace(b'"DEEP"', deep, 1)


serve(change, profiles=["host"])
