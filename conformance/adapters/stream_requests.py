"""What a stream sends over stdio: its requests, each made once its id is known; and the next stream's, written ahead.

:func:`makers_of` gives a maker of each request of a stream; :func:`goes_ahead` says whether the
next stream may be written before the current one's answers are all read, and :class:`Ahead`
holds what was written of it (docs/protocol.md, "Pipelining").
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from conformance.adapters import protocol
from conformance.adapters.child import Stderr
from conformance.adapters.implementation import FailureKind, ImplementationFailed, Requests
from conformance.adapters.protocol.messages import StartRequest
from reference_impl.disclosure_commands import DISCLOSURE_TYPES, DisclosureEvent
from reference_impl.events import Event
from reference_impl.host_commands import HostCommand, is_host_command
from reference_impl.model import HostConfig, Manifest

Maker = Callable[[int], Any]  # makes one request, given its id


@dataclass(slots=True)
class Ahead:
    """The next stream's requests, written while the current one's answers were still being read.

    They are written only once every answer of the current stream has come (whole lines, not
    yet read): so every line read as one of its answers was written before the implementation
    could see any of these, and the current stream's verdict is the one it would be without them.
    ``stderr`` is what the implementation had written to stderr then: a failure of the current
    stream shows that, not what these requests made it write.
    """

    requests: Requests
    written: deque[Any]  # written, not answered: the first of the next stream's requests
    makers: deque[Maker]  # the rest, not written yet
    stderr: Stderr


def makers_of(events: Sequence[Event | HostCommand | DisclosureEvent],
              start: tuple[Sequence[Manifest], HostConfig] | None) -> deque[Maker]:
    """A maker of each request of a stream (given its id): ``start``'s when given, then each event's."""
    makers: deque[Maker] = deque()
    if start is not None:
        plugins, host = tuple(start[0]), start[1]
        makers.append(lambda request_id: StartRequest(id=request_id, plugins=plugins, host=host))
    makers.extend(functools.partial(protocol.request_for, event=event) for event in events)
    return makers


def goes_ahead(current: Requests, then: Requests) -> bool:
    """Whether ``then`` may be written ahead of ``current``'s answers: neither is written in pieces (a transport
    scenario's reads are its point), and ``then`` begins afresh (``start``, or host or disclosure commands only)."""
    if current.split_writes or then.split_writes or not then.events and then.start is None:
        return False
    return then.start is not None or all(needs_no_start(event) for event in then.events)


def needs_no_start(event: Any) -> bool:
    """Host commands and disclosure events begin their own scenarios (``host-load``, ``disclosure-start``)."""
    return is_host_command(event) or isinstance(event, DISCLOSURE_TYPES)


def not_started() -> ImplementationFailed:
    """The failure of an event sent before any scenario started (or after a failure discarded it)."""
    return ImplementationFailed(kind=FailureKind.NOT_STARTED, reason="no scenario started",
                                detail="call start() first, again after a failure")
