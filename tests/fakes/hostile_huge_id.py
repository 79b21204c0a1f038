"""Hostile stdio implementation: answers hello with a 5000-digit id (beyond Python's int-str limit)."""
import sys

for line in sys.stdin:
    print('{"id":%s,"ok":true,"result":{}}' % ("7" * 5000), flush=True)
