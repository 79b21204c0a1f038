"""Hostile stdio implementation: takes requests ahead (pipeline_depth 64) but sends no answer to the second 'run' of a scenario.

Otherwise it answers like the reference. Strictly in turn that is a hang; written ahead, the
next answer arrives with the next id. The report must say which request got no answer.
"""
from reference_loop import encode, serve

runs = 0


def change(request, answer):
    global runs
    runs = 0 if request["cmd"] == "start" else runs + (request["cmd"] == "run")
    return b"" if runs == 2 and request["cmd"] == "run" else encode(answer)


serve(change, depth=64)
