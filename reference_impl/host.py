"""The reference host (profile ``host``): a pure state machine over host commands.

``step(state, command) -> (state, observation)``; :class:`HostEngine` holds the state between
commands. The commands are in :mod:`reference_impl.host_commands`.
The reference runs no plugin code: what plugins do is data (:class:`Behaviour`: whose
setup fails, which hook subscribers raise) and a plugin instance is a generation number
that a reload increments. The observation of every command is the ordered lifecycle event
log it produced, plus problems, orders or a config snapshot. Every command is defined in
every phase: one that has nothing to do produces no events.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from reference_impl import __version__
from reference_impl.host_commands import (
    Behaviour,
    Dispatch,
    HostCommand,
    Load,
    OpenConversation,
    ReadConfig,
    Reload,
    Start,
    Stop,
)
from reference_impl.host_config import READING, Merge, Reading, deep_merge
from reference_impl.host_observations import EventKind, HostObservation, LifecycleEvent
from reference_impl.lifecycle import (
    HookRunner,
    HostPlan,
    Order,
    makes_invalid,
    plan,
    reverse_order,
    run_hooks,
    run_setup,
    setup_order,
)
from reference_impl.model import ImplementationInfo, Profile
from reference_impl.problems import Problem

PROFILES = (Profile.HOST,)


@dataclass(frozen=True, slots=True, kw_only=True)
class HostRules:
    """The places where hosts commonly go wrong, as replaceable functions.

    The reference uses :data:`REFERENCE_RULES`; deliberately broken hosts (tests/fakes)
    replace one of them to prove the checks can fail. ``reading`` is how the environment and
    command-line layers are read; ``invalidates`` which problems make the plugins they name invalid.
    """

    merge: Merge = deep_merge
    setup_order: Order = setup_order
    shutdown_order: Callable[[Sequence[str], Sequence[str]], tuple[str, ...]] = reverse_order
    run_hooks: HookRunner = run_hooks
    reading: Reading = READING
    invalidates: Callable[[Problem], bool] = makes_invalid


REFERENCE_RULES = HostRules()


class HostPhase(enum.Enum):
    """Where the host is in its lifecycle (HOST-LIFE-4: each phase once per load, in order).

    Internal state, never on the wire: a plain Enum, whose members have no order.
    """

    EMPTY = "empty"
    LOADED = "loaded"
    STARTED = "started"
    STOPPED = "stopped"


@dataclass(frozen=True, slots=True, kw_only=True)
class HostState:
    """Everything the host remembers between commands."""

    phase: HostPhase = HostPhase.EMPTY
    plan: HostPlan = field(default_factory=HostPlan)
    load: Load | None = None
    set_up: tuple[str, ...] = ()
    started: tuple[str, ...] = ()
    generations: Mapping[str, int] = field(default_factory=dict)
    conversations: Mapping[str, Mapping[str, int]] = field(default_factory=dict)


def _load(command: Load, rules: HostRules) -> tuple[HostState, HostObservation]:
    result = plan(command.plugins, command.host, command.environment, command.overrides, merge=rules.merge,
                  order_by=rules.setup_order, reading=rules.reading, invalidates=rules.invalidates)
    events = [LifecycleEvent(kind=EventKind.REGISTERED, module_name=name) for name in result.load_order]
    events += [LifecycleEvent(kind=EventKind.INVALID, module_name=name, reason=",".join(codes))
               for name, codes in result.invalid.items()]
    events += [LifecycleEvent(kind=EventKind.SKIPPED, module_name=name, cause=cause, reason="dependency_invalid")
               for name, cause in result.blocked.items()]
    state = HostState(phase=HostPhase.LOADED, plan=result, load=command)
    return state, HostObservation(events=tuple(events), problems=result.problems, load_order=result.load_order,
                                  setup_order=result.setup_order)


def _start(state: HostState) -> tuple[HostState, HostObservation]:
    if state.phase is not HostPhase.LOADED or state.load is None:
        return state, HostObservation()
    outcomes = run_setup(state.plan.setup_order, state.plan.dependencies, state.load.behaviour.setup_fails,
                         state.plan.load_order)
    events = []
    for outcome in outcomes:
        if outcome.cause:
            events.append(LifecycleEvent(kind=EventKind.SKIPPED, module_name=outcome.module_name,
                                         cause=outcome.cause, reason="dependency_failed"))
        else:
            kind = EventKind.SETUP_FAILED if outcome.failed else EventKind.SET_UP
            events.append(LifecycleEvent(kind=kind, module_name=outcome.module_name))
    set_up = tuple(o.module_name for o in outcomes if o.set_up)
    events += [LifecycleEvent(kind=EventKind.STARTED, module_name=name, generation=1) for name in set_up]
    state = replace(state, phase=HostPhase.STARTED, set_up=set_up, started=set_up,
                    generations={name: 1 for name in set_up})
    return state, HostObservation(events=tuple(events))


def _stop(state: HostState, rules: HostRules) -> tuple[HostState, HostObservation]:
    if state.phase is not HostPhase.STARTED:
        return state, HostObservation()
    load = state.plan.load_order
    events = [LifecycleEvent(kind=EventKind.STOPPED, module_name=n) for n in rules.shutdown_order(state.started, load)]
    events += [LifecycleEvent(kind=EventKind.TORN_DOWN, module_name=n)
               for n in rules.shutdown_order(state.set_up, load)]
    return replace(state, phase=HostPhase.STOPPED, started=(), set_up=()), HostObservation(events=tuple(events))


def _open(state: HostState, conversation: str) -> tuple[HostState, LifecycleEvent]:
    """Open ``conversation`` (snapshotting the current instances) unless it is open already."""
    instances = state.conversations.get(conversation)
    if instances is None:
        instances = {name: state.generations[name] for name in state.started}
        state = replace(state, conversations={**state.conversations, conversation: instances})
    return state, LifecycleEvent(kind=EventKind.CONVERSATION_OPENED, conversation=conversation,
                                 instances=dict(instances))


def _dispatch(state: HostState, command: Dispatch, rules: HostRules) -> tuple[HostState, HostObservation]:
    events: list[LifecycleEvent] = []
    instances: Mapping[str, int] = {}
    if command.conversation:
        if command.conversation not in state.conversations:
            state, opened = _open(state, command.conversation)
            events.append(opened)
        instances = state.conversations[command.conversation]
    # HOST-HOOK-3: in a conversation, only the instances it keeps (none when it opened before the start)
    subscribers = [n for n in state.plan.load_order if n in state.started and command.hook in state.plan.hooks[n]
                   and (not command.conversation or n in instances)]
    behaviour = state.load.behaviour if state.load else Behaviour()
    for name, failed in rules.run_hooks(subscribers, lambda n: behaviour.raises(n, command.hook)):
        events.append(LifecycleEvent(kind=EventKind.HOOK_FAILED if failed else EventKind.HOOK_CALLED,
                                     module_name=name, hook=command.hook, conversation=command.conversation,
                                     generation=instances.get(name, state.generations.get(name)),
                                     reason="exception" if failed else ""))
    return state, HostObservation(events=tuple(events))


def _reload(state: HostState, command: Reload) -> tuple[HostState, HostObservation]:
    name = command.module_name
    if name not in state.started:
        event = LifecycleEvent(kind=EventKind.RELOAD_REFUSED, module_name=name, reason="not_started")
        return state, HostObservation(events=(event,))
    generation = state.generations[name] + 1
    state = replace(state, generations={**state.generations, name: generation})
    return state, HostObservation(events=(LifecycleEvent(kind=EventKind.RELOADED, module_name=name,
                                                         generation=generation),))


def _read_config(state: HostState, command: ReadConfig) -> HostObservation:
    config = state.plan.configs.get(command.module_name)
    if config is not None:
        return HostObservation(config=config)
    problem = Problem(code="plugin-not-loaded", plugins=(command.module_name,),
                          message=f"plugin '{command.module_name}' is not loaded; it has no configuration")
    return HostObservation(problems=(problem,))


def step(state: HostState, command: HostCommand,
         rules: HostRules = REFERENCE_RULES) -> tuple[HostState, HostObservation]:
    """Apply one command; return the new state and what was observed.

    Raises DuplicateModule when a ``load`` names two plugins with one module_name.
    """
    if isinstance(command, Load):
        return _load(command, rules)
    if isinstance(command, Start):
        return _start(state)
    if isinstance(command, Stop):
        return _stop(state, rules)
    if isinstance(command, Dispatch):
        return _dispatch(state, command, rules)
    if isinstance(command, OpenConversation):
        state, event = _open(state, command.conversation)
        return state, HostObservation(events=(event,))
    if isinstance(command, Reload):
        return _reload(state, command)
    if isinstance(command, ReadConfig):
        return state, _read_config(state, command)
    raise TypeError(f"not a host command: {command!r}")


class HostEngine:
    """Holds one host state and applies commands to it: the shell the conformance adapters drive."""

    def __init__(self, *, rules: HostRules = REFERENCE_RULES, name: str = "pas-reference-host") -> None:
        self._rules = rules
        self._state = HostState()
        self.info = ImplementationInfo(name=name, version=__version__, language="python", profiles=PROFILES)

    def apply(self, command: HostCommand) -> HostObservation:
        """Apply one command and return what was observed."""
        self._state, observation = step(self._state, command, self._rules)
        return observation


def create() -> HostEngine:
    """Factory for an in-process host implementation (``reference_impl.host:create``)."""
    return HostEngine()
