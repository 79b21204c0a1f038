"""Hostile stdio implementation: answers like the reference, but now and then shows a plugin in the wrong state.

Each 'run' answer, with probability 0.3 (its own random numbers, seeded from ``PAS_FAKE_SEED``
when set, else unseeded), has its first plugin's state swapped between active and sleeping. ``pas fuzz`` must report a finding that
does not disagree on every replay as flaky, with how many replays disagreed.
"""
import os
import random

from reference_loop import encode, serve

SWAP = {"active": "sleeping", "sleeping": "active"}
random.seed(os.environ.get("PAS_FAKE_SEED"))


def change(request, answer):
    plugins = answer.get("result", {}).get("plugins") if request["cmd"] == "run" else None
    if plugins and plugins[0].get("state") in SWAP and random.random() < 0.3:
        plugins[0]["state"] = SWAP[plugins[0]["state"]]
    return encode(answer)


serve(change)
