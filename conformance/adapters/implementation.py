"""What an implementation under test provides, and how its failures are reported.

A Python implementation is any object satisfying :class:`Scheduler` (or, for a host that
implements only the host profile, :class:`Host`); ``--impl python:package.module:factory``
calls ``factory()`` to get one. Implementations in other
languages speak the stdio protocol instead (``conformance.adapters.stdio``). The runner
only ever talks to an :class:`Adapter`, which turns both into JSON observations.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

from reference_impl.errors import PasError
from reference_impl.events import Event, Observation
from reference_impl.host import HostObservation
from reference_impl.host_commands import HostCommand
from reference_impl.model import HostConfig, ImplementationInfo, Manifest

# One per-step timeout (seconds) for every entry point: pas run, pas fuzz, the pytest plugin, adapter_for.
DEFAULT_STEP_TIMEOUT = 5.0


@runtime_checkable
class Scheduler(Protocol):
    """The in-process interface of an activation scheduler under test.

    ``start`` installs plugins under a host config and forgets all earlier state;
    ``apply`` applies one event and returns the observation (see reference_impl.events).
    An implementation claiming the ``host`` profile also receives host commands
    (reference_impl.host_commands) through ``apply``, answering each with a HostObservation.
    ``reference_impl.engine.Engine`` is the reference example.
    """

    @property
    def info(self) -> ImplementationInfo:
        """Name, version, language and claimed profiles."""
        ...

    def start(self, manifests: Sequence[Manifest], host: HostConfig) -> None:
        """Install ``manifests`` under ``host`` with empty state."""
        ...

    def apply(self, event: Event | HostCommand) -> Observation | HostObservation:
        """Apply one event (or host command); return what was observed."""
        ...


@runtime_checkable
class Host(Protocol):
    """The in-process interface of a host that implements only the ``host`` profile.

    ``apply`` applies one host command (reference_impl.host_commands: ``Load`` begins a scenario and
    forgets all earlier state) and returns the HostObservation (or its JSON). No ``start``:
    host scenarios begin with a load. ``reference_impl.host.HostEngine`` is the reference.
    """

    @property
    def info(self) -> ImplementationInfo:
        """Name, version, language and claimed profiles (``host``)."""
        ...

    def apply(self, command: HostCommand) -> HostObservation:
        """Apply one host command; return what was observed."""
        ...


class ImplementationFailed(PasError):
    """The implementation under test crashed, hung, or broke the protocol.

    The runner records this as an ``errored`` result; it never stops the run.
    """

    def __init__(self, *, reason: str, detail: str = "") -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"{reason}: {detail}" if detail else reason)


class Adapter(Protocol):
    """What the runner drives: one implementation, whatever its kind, speaking JSON."""

    def hello(self) -> ImplementationInfo:
        """Start the implementation if needed and return who it is; raises ImplementationFailed."""
        ...

    def start(self, manifests: Sequence[Manifest], host: HostConfig) -> None:
        """Begin an activation scenario (host scenarios begin with a Load instead); raises ImplementationFailed."""
        ...

    def send(self, event: Event | HostCommand) -> dict[str, Any]:
        """Apply one event (or host command) and return the observation's JSON; raises ImplementationFailed.

        A host command needs no ``start`` first: host scenarios begin with a ``Load``.
        """
        ...

    def reset(self) -> None:
        """Throw the implementation away after a failure; the next hello/start begins afresh."""
        ...

    def close(self) -> None:
        """Say goodbye and release every resource (idempotent)."""
        ...


def stream(adapter: Adapter, events: Iterable[Event | HostCommand], *,
           start: tuple[Sequence[Manifest], HostConfig] | None = None) -> Generator[dict[str, Any] | None]:
    """``adapter.start(*start)`` (yielding None), then ``adapter.send(event)`` for each event, yielding its JSON.

    An adapter with a ``stream`` method of its own (the stdio adapter: it writes requests ahead
    to an implementation that takes them) is used through it; either way the caller may stop
    early. Raises what start and send raise.
    """
    own = getattr(adapter, "stream", None)
    if own is not None:
        yield from own(events, start=start)
        return
    if start is not None:
        adapter.start(*start)
        yield None
    for event in events:
        yield adapter.send(event)
