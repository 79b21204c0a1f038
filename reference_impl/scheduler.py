"""The activation scheduler as a pure state machine: ``step(catalogue, state, event, semantics)``.

This module is the rules an implementer reads, in the order of spec/semantics.yaml: the
constants (the rounds argument), eligibility (its table is run by :mod:`reference_impl.eligibility`),
what each state shows (visibility), the outcome tables of the two AI-facing calls, and then
counting and the admin changes, which are code rather than tables. Nothing is kept between
calls: no I/O, no clock, no logging, no global state and no caches, so the same inputs always
give the same new state and observation and any sequence of events can be replayed. The
tables and constants are the ``semantics`` the caller passes (``semantics.load_semantics()``
reads the bundled spec/semantics.yaml).

The Engine steps through :mod:`reference_impl.fast`, which gives the same results with caches
keyed by value; tests/properties/test_fast_path_beside_the_rules.py holds the two together.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from reference_impl.catalogue import Catalogue
from reference_impl.eligibility import is_sleep_eligible
from reference_impl.errors import MalformedDocument
from reference_impl.events import (
    OMITTED,
    Activate,
    AdminObservation,
    Call,
    CallObservation,
    Disable,
    Enable,
    Event,
    Extend,
    Observation,
    PluginView,
    Restart,
    RunObservation,
    SetScheduler,
    SetStrategy,
    StartRun,
)
from reference_impl.frozen import EMPTY, FrozenMap, thaw
from reference_impl.model import AdminOutcome, HostConfig, Manifest, OutcomeKind, PluginState, Strategy
from reference_impl.semantics import Semantics, first_match

Counters = Mapping[str, int]  # module_name -> stored rounds (only entries > 0 are kept)


@dataclass(frozen=True, slots=True, kw_only=True)
class SchedulerState:
    """Everything the scheduler remembers: the live host config and per-conversation counters."""

    host: HostConfig = field(default_factory=HostConfig)
    counters: Mapping[str, Counters] = EMPTY

    def __post_init__(self) -> None:
        object.__setattr__(self, "counters", FrozenMap(self.counters))  # freezes each conversation's too

    def counters_of(self, conversation: str) -> Counters:
        """The stored counters of one conversation (empty when it has none)."""
        return self.counters.get(conversation, EMPTY)

    def with_counters(self, conversation: str, counters: Counters) -> SchedulerState:
        """A copy where ``conversation`` has ``counters`` (conversation dropped when empty)."""
        updated = {c: v for c, v in self.counters.items() if c != conversation}
        if counters:
            updated[conversation] = counters
        return SchedulerState(host=self.host, counters=updated)

    def to_json(self) -> dict[str, Any]:
        """The persisted form: what a host writes to survive a restart (ACT-COUNT-7)."""
        return {
            "host": self.host.to_json(),
            "counters": {c: dict(sorted(v.items())) for c, v in sorted(self.counters.items())},
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any], semantics: Semantics) -> SchedulerState:
        """Restore a persisted state under ``semantics``; raises MalformedDocument when it is not one.

        Counters must be integers in 0..``semantics.max_active_rounds`` (ACT-COUNT-8); zeros
        are dropped.
        """
        if not isinstance(doc, Mapping):
            raise MalformedDocument(field="", reason=f"a scheduler state must be a mapping, not {type(doc).__name__}")
        counters = doc.get("counters", {})
        limit = semantics.max_active_rounds
        valid = isinstance(counters, Mapping) and all(
            isinstance(v, Mapping)
            and all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= limit for n in v.values())
            for v in counters.values()
        )
        if not valid:
            raise MalformedDocument(field="counters", reason=f"must map conversations to {{module: integer 0..{limit}}}")
        return cls(
            host=HostConfig.from_json(doc.get("host", {})),
            counters={c: {m: n for m, n in v.items() if n} for c, v in counters.items() if any(v.values())},
        )


def parse_rounds(value: Any, semantics: Semantics) -> int | None:
    """The clamped rounds argument, or None when it is not an integer (ACT-ARG-1..4)."""
    if value is OMITTED or value is None:
        return semantics.default_active_rounds
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int):
        return None
    return max(semantics.min_active_rounds, min(semantics.max_active_rounds, value))


def scheduler_on(host: HostConfig, semantics: Semantics) -> bool:
    """The built-in scheduler runs unless switched off or disabled by name (ACT-SCHED-1)."""
    return host.scheduler_enabled and semantics.scheduler_module not in host.disabled


def sleep_eligible(manifest: Manifest, host: HostConfig, semantics: Semantics) -> bool:
    """Whether a plugin may sleep now: the scheduler runs and the eligibility table says so (ACT-ELIG-5)."""
    strategy = host.strategy_for(manifest.module_name)
    return scheduler_on(host, semantics) and is_sleep_eligible(manifest, strategy, semantics)


def plugin_view(manifest: Manifest, state: PluginState, rounds_left: int | None, semantics: Semantics) -> PluginView:
    """What the model is shown of a plugin in ``state``: the visibility table's row for it."""
    rules = semantics.visibility[state.value]
    return PluginView(
        module_name=manifest.module_name,
        state=state,
        rounds_left=rounds_left if rules.rounds_left else None,
        hint=rules.hint == "last_run" and rounds_left == 1,
        brief_shown=rules.brief_shown,
        methods_shown=rules.methods_shown and any(m.description for m in manifest.methods),  # ACT-STATE-8
        injection_called=rules.injection_called and manifest.injects_prompt,
    )


def _call(
    catalogue: Catalogue, state: SchedulerState, event: Call, semantics: Semantics
) -> tuple[SchedulerState, CallObservation]:
    """A call's outcome from its method's table, then what that outcome stores and replies."""
    rules = semantics.methods[event.method]
    rounds = parse_rounds(event.rounds, semantics)
    manifest = catalogue.find_available(event.module_name, state.host, event.adapter)
    eligible = manifest is not None and sleep_eligible(manifest, state.host, semantics)
    # Stored counters are always positive; the tables decide eligibility before the counter.
    stored = state.counters_of(event.conversation).get(event.module_name, 0)
    facts = {
        "argument": "valid" if rounds is not None else "invalid",
        "plugin": "found" if manifest is not None else "not_found",
        "sleep_eligible": eligible,
        "stored": "positive" if stored else "zero",
    }
    outcome = OutcomeKind(first_match(rules.outcomes, facts).result)
    reply = CallObservation(outcome=outcome, module_name=event.module_name, ends_step=rules.ends_step)
    if outcome is OutcomeKind.ALREADY_ACTIVE:
        return state, replace(reply, rounds=stored)
    if outcome not in (OutcomeKind.ACTIVATED, OutcomeKind.EXTENDED):
        return state, reply
    if manifest is None or rounds is None:
        raise LookupError(f"the {event.method} outcome table grants {outcome.value} without a plugin or valid rounds")
    if outcome is OutcomeKind.ACTIVATED:
        block = plugin_view(manifest, PluginState.ACTIVE, rounds, semantics)
        return _store(state, event.conversation, event.module_name, rounds), replace(reply, rounds=rounds, block=block)
    total = min(stored + rounds, semantics.max_active_rounds)
    return _store(state, event.conversation, event.module_name, total), replace(reply, rounds=total)


def _store(state: SchedulerState, conversation: str, module_name: str, rounds: int) -> SchedulerState:
    return state.with_counters(conversation, {**state.counters_of(conversation), module_name: rounds})


def shown_plugins(catalogue: Catalogue, host: HostConfig, adapter: str | None) -> list[Manifest]:
    """The plugins a conversation on ``adapter`` can see, by module_name (ACT-STATE-5)."""
    return [catalogue.manifests[name] for name in sorted(catalogue.manifests)
            if catalogue.find_available(name, host, adapter) is not None]


def _start_run(
    catalogue: Catalogue, state: SchedulerState, event: StartRun, semantics: Semantics
) -> tuple[SchedulerState, RunObservation]:
    """The run's view, computed once at its start (ACT-COUNT-1), and the counters counted down."""
    host = state.host
    stored = state.counters_of(event.conversation)
    awake: list[PluginView] = []
    resting: list[PluginView] = []  # active and sleeping, together
    remaining: dict[str, int] = {}
    for manifest in shown_plugins(catalogue, host, event.adapter):
        if not sleep_eligible(manifest, host, semantics):
            awake.append(plugin_view(manifest, PluginState.ALWAYS_AWAKE, None, semantics))
            continue
        rounds = stored.get(manifest.module_name, 0)
        if not rounds:
            resting.append(plugin_view(manifest, PluginState.SLEEPING, None, semantics))
            continue
        resting.append(plugin_view(manifest, PluginState.ACTIVE, rounds, semantics))
        # ACT-COUNT-2: shown with R, stored as R - 1, removed at 0 (only active plugins count, ACT-COUNT-4).
        if rounds > 1:
            remaining[manifest.module_name] = rounds - 1
    # ACT-ORDER-1: always-awake blocks first, then the rest, each group by module_name.
    observation = RunObservation(plugins=(*awake, *resting))
    if not scheduler_on(host, semantics):
        return state, observation  # ACT-SCHED-1/2: everything is awake; counters are neither read nor changed
    # Counters of plugins that are no longer shown or eligible are not carried over (ACT-COUNT-5).
    return state.with_counters(event.conversation, remaining), observation


def _admin(
    catalogue: Catalogue, state: SchedulerState, event: SetStrategy | SetScheduler | Enable | Disable
) -> tuple[SchedulerState, AdminObservation]:
    host = state.host
    if not isinstance(event, SetScheduler) and event.module_name not in catalogue.manifests:
        # ACT-ADMIN-3, ACT-ADMIN-4: admin changes name installed plugins only
        return state, _rejected(f"no installed plugin has module_name {event.module_name!r}")
    if isinstance(event, SetStrategy):
        try:
            strategy = Strategy(event.strategy)
        except ValueError:
            return state, _rejected(_unknown_strategy(event.strategy))
        strategies = {m: s for m, s in host.strategies.items() if m != event.module_name}
        if strategy is not Strategy.AUTO:  # ACT-ADMIN-2: auto is the absence of a strategy
            strategies[event.module_name] = strategy
        host = replace(host, strategies=strategies)
    elif isinstance(event, SetScheduler):
        host = replace(host, scheduler_enabled=event.enabled)
    elif isinstance(event, Enable):
        enabled = host.enabled
        if event.module_name not in enabled:  # a built-in named here is loaded once all the same
            enabled = (*enabled, event.module_name)
        host = replace(host, enabled=enabled, disabled=host.disabled - {event.module_name})
    else:
        host = replace(host, disabled=host.disabled | {event.module_name})
    return replace(state, host=host), AdminObservation(outcome=AdminOutcome.APPLIED)


def _unknown_strategy(value: object) -> str:
    """Why a strategy is refused, with the nearest known one when there is a likely typo."""
    allowed = [s.value for s in Strategy]
    near = difflib.get_close_matches(value, allowed, n=1) if isinstance(value, str) else []
    hint = f"did you mean {near[0]!r}? " if near else ""
    return f"unknown strategy {thaw(value)!r}; {hint}use one of {', '.join(allowed)}"


def _rejected(reason: str) -> AdminObservation:
    return AdminObservation(outcome=AdminOutcome.REJECTED, reason=reason)


def step(catalogue: Catalogue, state: SchedulerState, event: Event, semantics: Semantics) -> tuple[SchedulerState, Observation]:
    """Apply one event under ``semantics``: return the new state and what was observed.

    Raises TypeError only for an object that is not an Event (misuse of the API).
    """
    if isinstance(event, StartRun):
        return _start_run(catalogue, state, event, semantics)
    if isinstance(event, (Activate, Extend)):
        return _call(catalogue, state, event, semantics)
    if isinstance(event, Restart):
        # Only what was persisted survives: the state goes through its JSON form.
        return SchedulerState.from_json(state.to_json(), semantics), AdminObservation(outcome=AdminOutcome.APPLIED)
    if isinstance(event, (SetStrategy, SetScheduler, Enable, Disable)):
        return _admin(catalogue, state, event)
    raise TypeError(f"not a PAS event: {event!r}")
