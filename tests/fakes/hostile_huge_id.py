"""Hostile stdio implementation: answers hello with a 5000-digit id (beyond Python's int-str limit)."""
import sys

for _line in sys.stdin:
    print('{"id":' + "7" * 5000 + ',"ok":true,"result":{}}', flush=True)
