"""Hostile stdio implementation: answers hello with a line that is not a valid response.

The first argument picks the garbage: text (default, not JSON), array (JSON but not an
object), no-ok (an object without 'ok'), bad-utf8 (bytes that are not UTF-8).
"""
import sys

GARBAGE = {
    "text": b"Starting scheduler v0.1 ...",
    "array": b"[1, 2, 3]",
    "no-ok": b'{"id": 1, "result": {}}',
    "bad-utf8": b'{"id": 1, "ok": true, "result": "\xff\xfe"}',
}
mode = sys.argv[1] if len(sys.argv) > 1 else "text"
sys.stdin.readline()
sys.stdout.buffer.write(GARBAGE[mode] + b"\n")
sys.stdout.flush()
sys.stdin.read()
