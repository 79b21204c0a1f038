"""Hostile stdio implementation: reads every request and never answers, not even hello."""
import sys

for _ in sys.stdin:
    pass
