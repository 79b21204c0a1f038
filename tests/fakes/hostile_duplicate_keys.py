"""Hostile stdio implementation: writes ``"ok"`` twice in every answer to 'run' (``{"id":5,"ok":true,"ok":true,...}``).

Otherwise it answers like the reference. A parser that keeps the last value sees a valid
answer; another may not. The report must say the key is duplicated, at its JSON pointer.
"""
from reference_loop import encode, serve


def change(request, answer):
    line = encode(answer)
    return line.replace(b'"ok":true', b'"ok":true,"ok":true', 1) if request["cmd"] == "run" else line


serve(change)
