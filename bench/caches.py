"""How often the toolkit's caches spare work: counts, not times (moved here from the tests).

    python bench/caches.py

Two claims about work saved, which are speed, not behaviour (the tests hold what the caches
give: the same answers as without them):

* checking protocol messages reads only the schemas they need: a ``hello`` and a ``run``
  request read three schema files (the two requests and the common definitions), not the
  whole store; counted in a fresh process, from the schema store's file cache;
* ``CheckedBodies`` checks a body once: the same ``run`` request under three ids is checked
  once, a new body once more; an invalid body is checked every time, and so is a line that
  does not start with its id (the cache can only stand for the rest of such a line);
* the reference server reads a request once (``KnownRequests``): the same ``run`` under
  three ids is decoded once; under a second ``id`` key in its body, every time;
* the runner searches an answer for a key written twice only when writing back what it read
  does not give the line again: not for a compact answer, once for a spaced one.

It prints one row per claim: what was done, the count, and the count the claim expects.
Exit status 1 when a count differs from the expected one.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from conformance.adapters import serve
from conformance.adapters.protocol import strict, wire

_SCHEMAS_READ = (
    "from conformance.adapters.protocol.wire import check_message\n"
    "from conformance.documents import schemas\n"
    "assert check_message('protocol/hello-request', {'id': 1, 'cmd': 'hello', 'protocol_version': 1,"
    " 'spec_version': '1.0.0'}) == []\n"
    "assert check_message('protocol/run-request', {'id': 2, 'cmd': 'run', 'conversation': 'c'}) == []\n"
    "print(schemas._read.cache_info().currsize)"
)


def schemas_read() -> int:
    """Schema files read by a fresh process that checks one hello and one run request."""
    done = subprocess.run([sys.executable, "-c", _SCHEMAS_READ], capture_output=True, text=True, check=True, cwd=ROOT)
    return int(done.stdout.split()[-1])


def checks(lines: list[bytes], schema: str = "protocol/run-request") -> int:
    """Calls of ``check_message`` behind one ``CheckedBodies`` for ``lines``, in order."""
    calls = 0
    real = wire.check_message

    def counting(name: str, doc: object) -> list:
        nonlocal calls
        calls += 1
        return real(name, doc)

    wire.check_message = counting
    try:
        checked = wire.CheckedBodies()
        for line in lines:
            checked.check(schema, json.loads(line), line)
    finally:
        wire.check_message = real
    return calls


def requests_read(lines: list[bytes]) -> int:
    """Lines the reference server decodes in full when one session answers a hello and then ``lines``."""
    calls = 0
    real = serve.decode

    def counting(line: bytes) -> object:
        nonlocal calls
        calls += 1
        return real(line)

    serve.decode = counting
    try:
        session = serve.Session()
        for line in [b'{"id":1,"cmd":"hello","protocol_version":1,"spec_version":"1.0.0"}', *lines]:
            session.answer(line)
    finally:
        serve.decode = real
    return calls - 1


def duplicate_searches(lines: list[bytes]) -> int:
    """Key-by-key searches for a key written twice when the runner checks ``lines`` (each read as msgspec reads it)."""
    calls = 0
    real = strict.first_pointer

    def counting(*args: object) -> object:
        nonlocal calls
        calls += 1
        return real(*args)  # type: ignore[arg-type]

    strict.first_pointer = counting  # type: ignore[assignment]
    try:
        for line in lines:
            strict.duplicate_key(line, wire.decode(line))
    finally:
        strict.first_pointer = real
    return calls


def rows() -> list[tuple[str, int, int]]:
    """(what was done, count, expected count) for each claim."""
    same = [b'{"id":%d,"cmd":"run","conversation":"main"}' % i for i in (3, 4, 5)]
    bad = b'{"id":3,"cmd":"run","conversation":"main","extra":1}'
    late = b'{"cmd":"run","conversation":"main","id":3}'
    return [
        ("schema files read to check a hello and a run request", schemas_read(), 3),
        ("checks of one run body under ids 3, 4, 5", checks(same), 1),
        ("checks of those three, then a new body", checks([*same, b'{"id":6,"cmd":"run","conversation":"other"}']), 2),
        ("checks of an invalid body sent twice", checks([bad, bad]), 2),
        ("checks of a line without a leading id sent twice", checks([late, late]), 2),
        ("server reads of one run body under ids 3, 4, 5", requests_read(same), 1),
        ("server reads of a body with a second id key, twice", requests_read(
            [b'{"id":%d,"cmd":"run","conversation":"main","id":9}' % i for i in (3, 4)]), 2),
        ("duplicate-key searches of a compact and a spaced answer", duplicate_searches(
            [b'{"id":3,"ok":true,"result":{}}', b'{"id": 3, "ok": true, "result": {}}']), 1),
    ]


def main() -> int:
    """Print the table; 1 when a count is not the expected one."""
    table = rows()
    width = max(len(what) for what, _, _ in table)
    print(f"{'what':<{width}}  count  expected")
    for what, count, expected in table:
        print(f"{what:<{width}}  {count:>5}  {expected:>8}")
    return 0 if all(count == expected for _, count, expected in table) else 1


if __name__ == "__main__":
    sys.exit(main())
