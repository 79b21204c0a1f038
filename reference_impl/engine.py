"""The reference implementation as a stateful object: the shell the conformance adapters drive.

It claims all four profiles: activation events go to the scheduler, host commands
(reference_impl.host_commands) to a :class:`~reference_impl.host.HostEngine` it holds, and
disclosure events (reference_impl.disclosure_commands) to the disclosure rules
(:func:`reference_impl.disclosure.step`) under the options it was made with, which its
``info`` declares.
It is an edge: it is where the semantics are chosen (the bundled spec/semantics.yaml unless
given) and where the scheduler's caches live (:class:`~reference_impl.fast.FastScheduler`,
which gives what the rules of ``reference_impl.scheduler`` and ``reference_impl.render`` give).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from reference_impl import __version__
from reference_impl.catalogue import Catalogue
from reference_impl.disclosure import DisclosureState
from reference_impl.disclosure import step as disclosure_step
from reference_impl.disclosure_answers import DisclosureObservation
from reference_impl.disclosure_commands import DISCLOSURE_TYPES, DisclosureEvent
from reference_impl.disclosure_options import Options
from reference_impl.events import Activate, CallObservation, Event, Extend, Observation
from reference_impl.fast import FastScheduler
from reference_impl.host import HostEngine
from reference_impl.host_commands import HOST_COMMAND_TYPES, HostCommand
from reference_impl.host_observations import HostObservation
from reference_impl.model import HostConfig, ImplementationInfo, Manifest, Profile
from reference_impl.render import render_reply
from reference_impl.scheduler import SchedulerState
from reference_impl.semantics import Semantics, load_semantics

PROFILES = tuple(Profile)


class Engine:
    """Holds one scheduler state and applies events to it; renders text when asked.

    ``start`` installs plugins and a host config and forgets any earlier state (the host
    profile's state too). Host commands are applied to a reference host; ``host-load``
    forgets the earlier host state by itself. Disclosure events run under ``disclosure``
    (the options, the defaults unless given); ``disclosure-start`` forgets the earlier
    disclosure state by itself. ``semantics`` defaults to the bundled spec/semantics.yaml
    (read once per process); every step, restarts included, uses it.
    """

    info = ImplementationInfo(name="pas-reference", version=__version__, language="python", profiles=PROFILES,
                              disclosure=Options())

    def __init__(self, *, text: bool = True, semantics: Semantics | None = None,
                 disclosure: Options | None = None) -> None:
        self._text = text
        self._semantics = load_semantics() if semantics is None else semantics
        self._fast = FastScheduler(self._semantics)
        self._catalogue = Catalogue()
        self._state = SchedulerState()
        self._host = HostEngine()
        options = Options() if disclosure is None else disclosure
        self._disclosure = DisclosureState(options=options)
        if options != Engine.info.disclosure:
            self.info = replace(Engine.info, disclosure=options)  # an instance's own declaration

    def start(self, manifests: Iterable[Manifest], host: HostConfig) -> None:
        """Install ``manifests`` under ``host``, with no stored counters."""
        self._catalogue = Catalogue.of(manifests)
        self._state = SchedulerState(host=host)
        self._host = HostEngine()

    def apply(self, event: Event | HostCommand | DisclosureEvent) -> Observation | HostObservation | DisclosureObservation:
        """Apply one event (or host command, or disclosure event) and return what was observed.

        Raises reference_impl.disclosure.NotApplicable for a disclosure event its options do
        not offer (a scenario whose ``requires`` they do not meet).
        """
        if isinstance(event, HOST_COMMAND_TYPES):
            return self._host.apply(event)
        if isinstance(event, DISCLOSURE_TYPES):
            self._disclosure, answered = disclosure_step(self._disclosure, event)
            return answered
        self._state, observation = self._fast.step(self._catalogue, self._state, event, text=self._text)
        if not self._text:
            return observation
        if isinstance(observation, CallObservation) and isinstance(event, (Activate, Extend)):
            return replace(observation, text=render_reply(self._catalogue.manifests, event, observation))
        return observation

    @property
    def state(self) -> SchedulerState:
        """The current scheduler state (what a restart would persist)."""
        return self._state


def create() -> Engine:
    """Factory for ``--impl python:reference_impl.engine:create``."""
    return Engine()


def with_options(text: str) -> Engine:
    """The reference under the disclosure options ``text`` (``state_scope=instance,order=catalogue``).

    What ``--impl 'reference?state_scope=instance'`` makes; raises MalformedDocument for a
    bad option or a combination the spec does not allow.
    """
    return Engine(disclosure=Options.from_text(text))
