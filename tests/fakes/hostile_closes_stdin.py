"""Hostile stdio implementation: takes requests ahead (pipeline_depth 64), then closes its stdin and waits.

It answers like the reference until it reads the first 'restart'; then it answers what it has
read, closes its stdin (it will read nothing more) and sleeps. The report must say that it
closed its stdin with requests not yet delivered, not wait out a timeout or blame an id.
"""
import os
import sys
import time

from reference_loop import encode, serve

closing = False


def change(request, answer):
    global closing
    closing = closing or request["cmd"] == "restart"
    return encode(answer)


def after_each_read() -> None:
    if closing:
        os.close(sys.stdin.fileno())
        time.sleep(3600)


serve(change, depth=64, after_each_read=after_each_read)
