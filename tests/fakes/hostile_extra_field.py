"""Hostile stdio implementation: adds a field the protocol does not have inside 'activate''s block (``"priority": 1``).

Otherwise it answers like the reference. The report must name the unknown field at its JSON
pointer (``/result/block/priority``), not say the block matches none of its forms.
"""
from reference_loop import encode, serve


def change(request, answer):
    block = answer.get("result", {}).get("block") if request["cmd"] == "activate" else None
    if isinstance(block, dict):
        block["priority"] = 1
    return encode(answer)


serve(change)
