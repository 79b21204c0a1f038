"""Hostile stdio implementation: answers hello and start, then answers 'run' with arrays nested 10,000 deep."""
import json
import sys

INFO = {"name": "hostile-deep-nesting", "version": "0", "language": "python", "profiles": ["activation"],
        "protocol_version": 1}
DEPTH = 10_000

for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] == "run":
        print(f'{{"id":{request["id"]},"ok":true,"result":{{"plugins":{"[" * DEPTH}{"]" * DEPTH}}}}}', flush=True)
        continue
    result = INFO if request["cmd"] == "hello" else {}
    print(json.dumps({"id": request["id"], "ok": True, "result": result}), flush=True)
