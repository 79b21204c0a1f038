"""Hostile stdio implementation: a lone surrogate (the JSON escape \\ud800, half of a pair) in its answers.

The first argument picks where: ``name`` (default) in its hello name, ``text`` in the text of
every 'run' answer. Otherwise it answers like the reference. ``pas run`` must still write its
reports and print no traceback; ``pas fuzz`` must write its finding.
"""
import json
import sys

from reference_loop import serve

MODE = sys.argv[1] if len(sys.argv) > 1 else "name"


def change(request, answer):
    if MODE == "text" and request["cmd"] == "run" and answer.get("ok"):
        answer["result"]["text"] = "<plugins>\ud800</plugins>"
    return (json.dumps(answer) + "\n").encode()  # ensure_ascii: the surrogate goes out as the escape \ud800


serve(change, name="pas-\ud800" if MODE == "name" else None)
