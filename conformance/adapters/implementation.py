"""What an implementation under test provides, and how its failures are reported.

A Python implementation is any object satisfying :class:`Scheduler` (or, for a host that
implements only the host profile, :class:`Host`); ``--impl python:package.module:factory``
calls ``factory()`` to get one. Implementations in other
languages speak the stdio protocol instead (``conformance.adapters.stdio``). The runner
only ever talks to an :class:`Adapter`, which turns both into JSON observations, and every
way an implementation fails into :class:`ImplementationFailed`: a :class:`FailureKind` from a
closed set, the requests in flight (:class:`InFlight`) and the detail.
"""

from __future__ import annotations

import enum
from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from reference_impl.disclosure_answers import DisclosureObservation
from reference_impl.disclosure_commands import DisclosureEvent
from reference_impl.errors import PasError
from reference_impl.events import Event, Observation
from reference_impl.host_commands import HostCommand
from reference_impl.host_observations import HostObservation
from reference_impl.model import HostConfig, ImplementationInfo, Manifest

# One per-step timeout (seconds) for every entry point: pas run, pas fuzz, the pytest plugin, adapter_for.
DEFAULT_STEP_TIMEOUT = 5.0


@runtime_checkable
class Scheduler(Protocol):
    """The in-process interface of an activation scheduler under test.

    ``start`` installs plugins under a host config and forgets all earlier state;
    ``apply`` applies one event and returns the observation (see reference_impl.events).
    An implementation claiming the ``host`` profile also receives host commands
    (reference_impl.host_commands) through ``apply``, answering each with a HostObservation;
    one claiming the ``disclosure`` profile receives disclosure events
    (reference_impl.disclosure_commands; ``DisclosureStart`` begins a scenario, no ``start``),
    answering each with a disclosure observation (reference_impl.disclosure_answers) or its
    JSON, and declares its options in ``info.disclosure``. An implementation that claims only
    the host or the disclosure profile needs no ``start``.
    ``reference_impl.Engine`` is the reference example.
    """

    @property
    def info(self) -> ImplementationInfo:
        """Name, version, language and claimed profiles."""
        ...

    def start(self, manifests: Sequence[Manifest], host: HostConfig) -> None:
        """Install ``manifests`` under ``host`` with empty state."""
        ...

    def apply(self, event: Event | HostCommand | DisclosureEvent) -> Observation | HostObservation | DisclosureObservation:
        """Apply one event (or host command, or disclosure event); return what was observed."""
        ...


@runtime_checkable
class Host(Protocol):
    """The in-process interface of a host that implements only the ``host`` profile.

    ``apply`` applies one host command (``reference_impl.HostCommand``: ``Load`` begins a scenario
    and forgets all earlier state) and returns the HostObservation (or its JSON). No ``start``:
    host scenarios begin with a load. ``reference_impl.HostEngine`` is the reference.
    """

    @property
    def info(self) -> ImplementationInfo:
        """Name, version, language and claimed profiles (``host``)."""
        ...

    def apply(self, command: HostCommand) -> HostObservation:
        """Apply one host command; return what was observed."""
        ...


class FailureKind(enum.StrEnum):
    """What went wrong with an implementation, from a closed set (the ``kind`` of an errored result).

    Reports and dashboards group by it; the fuzzer decides with it whether two findings are
    the same. Each member is one situation, raised in one place (the module in brackets).
    """

    START_FAILED = "start-failed"  # the program could not be started at all (stdio)
    EXITED = "exited"  # the process exited, or closed its stdout, with a request unanswered (stdio)
    STDIN_CLOSED = "stdin-closed"  # the process closed its stdin before a request reached it (stdio)
    TIMEOUT = "timeout"  # no whole answer within the step timeout (stdio)
    LINE_TOO_LONG = "line-too-long"  # an output line longer than the adapter takes (stdio)
    UNREADABLE_LINE = "unreadable-line"  # an output line that is not JSON, nested too deep, a huge integer, a lone surrogate (stdio)
    WRONG_ID = "wrong-id"  # an answer whose id is not the awaited request's: one answer skipped, or another id (stdio)
    DUPLICATE_KEY = "duplicate-key"  # an answer with a key twice in one object (stdio)
    SCHEMA = "schema"  # an answer that does not match its protocol schema (stdio)
    REFUSED = "refused"  # an error response (``ok: false``) to a valid request (stdio)
    PROTOCOL_VERSION = "protocol-version"  # hello names a protocol version other than the runner's (stdio)
    NOT_STARTED = "not-started"  # an event sent with no scenario started: the caller's order, not an answer (stdio)
    RAISED = "raised"  # the implementation's code raised: factory, info, start, apply or to_json (in-process)
    BAD_ANSWER = "bad-answer"  # apply returned no observation, or info no ImplementationInfo (in-process)
    INTERFACE = "interface"  # the object lacks what the scenario needs, e.g. start() (in-process)
    MALFORMED = "malformed"  # an observation too malformed to compare with the expectation (runner, fuzz)
    INTERNAL = "internal"  # the adapter itself raised something else: a bug in PAS (runner)


#: Failures that do not say which request caused them (no answer says whose it was): with requests
#: written ahead, any of those in flight may have. The stdio adapter looks into them strictly in turn.
UNATTRIBUTED_KINDS = frozenset({FailureKind.EXITED, FailureKind.TIMEOUT, FailureKind.STDIN_CLOSED,
                                FailureKind.LINE_TOO_LONG, FailureKind.UNREADABLE_LINE})

#: Failures that leave the implementation fit for the next scenario, as a wrong observation does: it
#: answered in its turn, well formed, and the next scenario's ``start`` empties its state. The stdio
#: adapter keeps its process (a refused ``hello`` aside) and the runner does not reset it.
KEPT_KINDS = frozenset({FailureKind.REFUSED})


@dataclass(frozen=True, slots=True, kw_only=True)
class Sent:
    """One request given to the implementation: its command, and its wire id (None in-process)."""

    cmd: str
    id: int | None = None

    def __str__(self) -> str:
        return f"{self.cmd!r}" if self.id is None else f"{self.cmd!r} (request {self.id})"

    def to_json(self) -> dict[str, Any]:
        """``{"cmd": ..., "id": ...}``."""
        return {"cmd": self.cmd, "id": self.id}


@dataclass(frozen=True, slots=True, kw_only=True)
class InFlight:
    """The requests unanswered when the implementation failed: ``first`` awaited, up to ``last`` written.

    Without pipelining both are the same request; an implementation that takes requests
    ahead may have failed while handling any of them.
    """

    first: Sent
    last: Sent

    @classmethod
    def one(cls, cmd: str, request_id: int | None = None) -> InFlight:
        """A single request in flight."""
        sent = Sent(cmd=cmd, id=request_id)
        return cls(first=sent, last=sent)

    @property
    def pipelined(self) -> bool:
        """True when more than one request was unanswered."""
        return self.first != self.last

    def __str__(self) -> str:
        if not self.pipelined:
            return str(self.first)
        return f"{self.first} to {self.last}"

    def to_json(self) -> dict[str, Any]:
        """``{"first": {cmd, id}, "last": {cmd, id}}``."""
        return {"first": self.first.to_json(), "last": self.last.to_json()}


class ImplementationFailed(PasError):
    """The implementation under test crashed, hung, or broke the protocol.

    ``kind`` says which way (a :class:`FailureKind`), ``reason`` says it in a sentence,
    ``detail`` adds what was seen (the line, the exception, the stderr tail), and ``in_flight``
    the request(s) unanswered at the time (None when nothing was sent, e.g. a failed start).
    The runner records this as an ``errored`` result; it never stops the run.
    """

    def __init__(self, *, kind: FailureKind, reason: str, detail: str = "", in_flight: InFlight | None = None) -> None:
        self.kind = kind
        self.reason = reason
        self.detail = detail
        self.in_flight = in_flight
        super().__init__(f"{reason}: {detail}" if detail else reason)

    def amended(self, *, detail: str | None = None, in_flight: InFlight | None = None) -> ImplementationFailed:
        """The same failure with ``detail`` and/or ``in_flight`` replaced (the others kept)."""
        return ImplementationFailed(kind=self.kind, reason=self.reason,
                                    detail=self.detail if detail is None else detail,
                                    in_flight=self.in_flight if in_flight is None else in_flight)


class Adapter(Protocol):
    """What the runner drives: one implementation, whatever its kind, speaking JSON."""

    def hello(self) -> ImplementationInfo:
        """Start the implementation if needed and return who it is; raises ImplementationFailed."""
        ...

    def start(self, manifests: Sequence[Manifest], host: HostConfig) -> None:
        """Begin an activation scenario (host scenarios begin with a Load instead); raises ImplementationFailed."""
        ...

    def send(self, event: Event | HostCommand | DisclosureEvent) -> dict[str, Any]:
        """Apply one event (or host command, or disclosure event) and return the observation's JSON; raises ImplementationFailed.

        A host command or a disclosure event needs no ``start`` first: host scenarios begin with
        a ``Load``, disclosure scenarios with a ``DisclosureStart``.
        """
        ...

    def reset(self) -> None:
        """Throw the implementation away after a failure; the next hello/start begins afresh."""
        ...

    def close(self) -> None:
        """Say goodbye and release every resource (idempotent)."""
        ...


@dataclass(frozen=True, slots=True)
class Requests:
    """What one stream sends, in order: ``start`` (plugins and host config) when given, then each event.

    Equal when they send the same requests: a stream announced as the next one (``then``) is
    recognised by value when it is asked for. Build one with :meth:`of`.
    """

    events: tuple[Event | HostCommand | DisclosureEvent, ...]
    start: tuple[tuple[Manifest, ...], HostConfig] | None = None
    split_writes: bool = False

    @classmethod
    def of(cls, events: Iterable[Event | HostCommand | DisclosureEvent], *,
           start: tuple[Sequence[Manifest], HostConfig] | None = None, split_writes: bool = False) -> Requests:
        """The requests of a stream of ``events`` after ``start`` (written in pieces with ``split_writes``)."""
        return cls(tuple(events), None if start is None else (tuple(start[0]), start[1]), split_writes)


def stream(adapter: Adapter, events: Iterable[Event | HostCommand | DisclosureEvent], *,
           start: tuple[Sequence[Manifest], HostConfig] | None = None,
           split_writes: bool = False, then: Requests | None = None) -> Generator[dict[str, Any] | None]:
    """``adapter.start(*start)`` (yielding None), then ``adapter.send(event)`` for each event, yielding its JSON.

    An adapter with a ``stream`` method of its own (the stdio adapter: it writes requests ahead
    to an implementation that takes them, and writes each in pieces with ``split_writes``) is used
    through it; either way the caller may stop early. ``then`` is the stream the caller will ask
    for next if it goes on (the next scenario, the next fuzz case): the stdio adapter may write its
    requests ahead once every answer of this one has come; other adapters ignore it. Raises what
    start and send raise.
    """
    own = getattr(adapter, "stream", None)
    if own is not None:
        options: dict[str, Any] = {"start": start}
        if split_writes:
            options["split_writes"] = True
        if then is not None:
            options["then"] = then
        yield from own(events, **options)
        return
    if start is not None:
        adapter.start(*start)
        yield None
    for event in events:
        yield adapter.send(event)
