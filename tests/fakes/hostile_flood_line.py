"""Hostile stdio implementation: answers hello with one 50 MB line."""
import sys

sys.stdin.readline()
chunk = b"x" * (1024 * 1024)
try:
    for _ in range(50):
        sys.stdout.buffer.write(chunk)
    sys.stdout.buffer.write(b"\n")
    sys.stdout.flush()
except BrokenPipeError:
    pass
sys.stdin.read()
