"""Hostile stdio implementation: reads hello and exits with code 1 without answering."""
import sys

sys.stdin.readline()
print("error: I do not speak this protocol", file=sys.stderr)
sys.exit(1)
