"""Hostile stdio implementation: prints log lines on stdout, endlessly, from the start."""
import itertools
import sys

try:
    for n in itertools.count():
        sys.stdout.write(f"tick {n}\n")
except BrokenPipeError:
    pass
