"""Hostile stdio implementation: answers like the reference, but now and then shows a plugin in the wrong state.

Each 'run' answer, with probability 0.3 (its own random numbers, seeded from ``PAS_FAKE_SEED``
when set, else unseeded), has its first plugin's state swapped between active and sleeping. ``pas fuzz`` must report a finding that
does not disagree on every replay as flaky, with how many replays disagreed.

With ``PAS_FAKE_STARTS`` naming a file, each start of the process counts itself there and seeds
with the seed and that count: a fresh process (the fuzzer restarts it to replay a case alone)
does not repeat the coin flips of the one before, yet a test's run is the same every time.
"""
import os
import random
from pathlib import Path

from reference_loop import encode, serve

SWAP = {"active": "sleeping", "sleeping": "active"}
STARTS = os.environ.get("PAS_FAKE_STARTS")
if STARTS:
    started = int(Path(STARTS).read_text() or "0") if Path(STARTS).exists() else 0
    Path(STARTS).write_text(str(started + 1))
    random.seed(f"{os.environ.get('PAS_FAKE_SEED')}-{started}")
else:
    random.seed(os.environ.get("PAS_FAKE_SEED"))


def change(request, answer):
    plugins = answer.get("result", {}).get("plugins") if request["cmd"] == "run" else None
    if plugins and plugins[0].get("state") in SWAP and random.random() < 0.3:
        plugins[0]["state"] = SWAP[plugins[0]["state"]]
    return encode(answer)


serve(change)
