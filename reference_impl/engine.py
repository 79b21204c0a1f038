"""The reference implementation as a stateful object: the shell the conformance adapters drive.

It claims all three profiles: activation events go to the scheduler, host commands
(reference_impl.host_commands) to a :class:`~reference_impl.host.HostEngine` it holds.
It is an edge: it is where the semantics are chosen (the bundled spec/semantics.yaml unless
given) and where the scheduler's lineup cache lives.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import replace

from reference_impl import __version__
from reference_impl.catalogue import Catalogue
from reference_impl.events import Activate, CallObservation, Event, Extend, Observation, RunObservation
from reference_impl.host import HostEngine, HostObservation
from reference_impl.host_commands import HOST_COMMAND_TYPES, HostCommand
from reference_impl.lineup_cache import LineupCache
from reference_impl.model import HostConfig, ImplementationInfo, Manifest, Profile
from reference_impl.render import TextCache, render_reply, render_run
from reference_impl.scheduler import SchedulerState, step
from reference_impl.semantics import Semantics, load_semantics

PROFILES = tuple(Profile)

#: Host configs an Engine remembers, so that a config equal to a recent one (after a restart,
#: or an admin change undone) is the same object again and its cached lineups still hit.
RECENT_HOSTS = 8


class Engine:
    """Holds one scheduler state and applies events to it; renders text when asked.

    ``start`` installs plugins and a host config and forgets any earlier state (the host
    profile's state too). Host commands are applied to a reference host; ``host-load``
    forgets the earlier host state by itself. ``semantics`` defaults to the bundled
    spec/semantics.yaml (read once per process); every step, restarts included, uses it.
    """

    info = ImplementationInfo(name="pas-reference", version=__version__, language="python", profiles=PROFILES)

    def __init__(self, *, text: bool = True, semantics: Semantics | None = None) -> None:
        self._text = text
        self._semantics = load_semantics() if semantics is None else semantics
        self._cache = LineupCache()
        self._texts = TextCache()
        self._hosts: deque[HostConfig] = deque(maxlen=RECENT_HOSTS)
        self._catalogue = Catalogue()
        self._state = SchedulerState()
        self._host = HostEngine()

    def start(self, manifests: Iterable[Manifest], host: HostConfig) -> None:
        """Install ``manifests`` under ``host``, with no stored counters."""
        self._catalogue = Catalogue.of(manifests)
        self._cache.clear()  # entries for the old catalogue can never hit again
        self._hosts = deque([host], maxlen=RECENT_HOSTS)
        self._state = SchedulerState(host=host)
        self._host = HostEngine()

    def apply(self, event: Event | HostCommand) -> Observation | HostObservation:
        """Apply one event (or host command) and return what was observed."""
        if isinstance(event, HOST_COMMAND_TYPES):
            return self._host.apply(event)
        before = self._state.host
        self._state, observation = step(self._catalogue, self._state, event, self._semantics, cache=self._cache)
        if self._state.host is not before:
            self._state = self._recent_host()
        if not self._text:
            return observation
        manifests = self._catalogue.manifests
        if isinstance(observation, RunObservation):
            return replace(observation, text=render_run(manifests, observation, self._texts))
        if isinstance(observation, CallObservation) and isinstance(event, (Activate, Extend)):
            return replace(observation, text=render_reply(manifests, event, observation))
        return observation

    def _recent_host(self) -> SchedulerState:
        """The state with its host config replaced by an equal one seen recently, if any.

        The cache is keyed by identity: an equal but new config would miss. Equal configs
        give equal results, so swapping one for the other changes nothing but the cost.
        """
        host = self._state.host
        for seen in self._hosts:
            if seen == host:
                return replace(self._state, host=seen)
        self._hosts.append(host)
        return self._state

    @property
    def state(self) -> SchedulerState:
        """The current scheduler state (what a restart would persist)."""
        return self._state


def create() -> Engine:
    """Factory for ``--impl python:reference_impl.engine:create``."""
    return Engine()
