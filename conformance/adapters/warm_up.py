"""The reference server's warm-up: what its first requests would build, built while it waits for them.

A runner greets the server at once and then spends a few hundred milliseconds loading its
suite before the first scenario's requests come (``pas run`` starts the implementation early
for that reason). The first requests of each command would then build their schema's checker,
and the first host configuration would import jsonschema: about a tenth of a second spent
while the runner waits. :func:`warm_up` builds those things in that quiet instead, one at a
time, and stops as soon as a request is waiting to be read: it never delays an answer by more
than one step, and it changes no answer (it fills caches the requests fill anyway).
"""

from __future__ import annotations

import functools
import select
from collections.abc import Callable, Iterator
from typing import Any


def _quiet(stdin: Any) -> Callable[[], bool] | None:
    """A test of whether nothing is waiting on ``stdin`` to be read; None for an input that cannot tell (no descriptor)."""
    try:
        fd = stdin.fileno()
    except (AttributeError, OSError, ValueError):
        return None
    return lambda: not select.select([fd], [], [], 0)[0]


def _import_config_checker() -> None:
    import jsonschema  # noqa: F401 - what reference_impl.host_config imports at the first config schema it checks
    import referencing  # noqa: F401 - and its registry, which host_config builds each config schema's validator with


def _steps() -> Iterator[Callable[[], object]]:
    """Each step of the warm-up, the cheapest first: every request schema's checker, then the config checker's import."""
    from conformance.adapters import protocol
    from conformance.documents.schemas import certainly_valid

    for cmd in protocol.COMMANDS:
        yield functools.partial(certainly_valid, protocol.request_schema(cmd), {})
    yield _import_config_checker


def warm_up(stdin: Any) -> int:
    """Take the warm-up's steps while nothing is waiting on ``stdin``; the number taken (never raises)."""
    quiet = _quiet(stdin)
    taken = 0
    if quiet is None:
        return taken
    try:
        for step in _steps():
            if not quiet():
                break
            step()
            taken += 1
    except Exception:  # noqa: BLE001 - a warm-up is no request: whatever fails here fails again, and is answered, when one needs it
        pass
    return taken
