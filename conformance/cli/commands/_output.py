"""Where a command's report goes: a file named by ``--output``, or standard output."""

from __future__ import annotations

import sys


def write_report(text: str, output: str | None, *, command: str) -> bool:
    """Write ``text`` to the file ``output`` (UTF-8), or to standard output when it is None.

    Returns False, after saying why on standard error as ``pas <command>: cannot write ...``,
    when the file cannot be written; never raises OSError.
    """
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return True
    try:
        with open(output, "w", encoding="utf-8") as stream:
            stream.write(text)
    except OSError as error:
        print(f"pas {command}: cannot write {output}: {error.strerror or error}", file=sys.stderr)
        return False
    return True
