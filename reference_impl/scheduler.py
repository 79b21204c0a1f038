"""The activation scheduler as a pure state machine: ``step(catalogue, state, event, semantics)``.

No I/O, no clock, no logging, no global state: the same inputs always give the same new
state and observation, so any sequence of events can be replayed. The decision tables
(eligibility, visibility, call outcomes) and the constants are the ``semantics`` the caller
passes (``semantics.load_semantics()`` reads the bundled spec/semantics.yaml); counting and
the state transitions are the code below. A caller that steps many events may pass a
:class:`~reference_impl.lineup_cache.LineupCache` it owns; the results are the same without.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from reference_impl.catalogue import Catalogue
from reference_impl.eligibility import eligibility_decider, is_sleep_eligible
from reference_impl.errors import MalformedDocument
from reference_impl.events import (
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
    OMITTED,
)
from reference_impl.model import AdminOutcome, HostConfig, Manifest, OutcomeKind, PluginState, Strategy
from reference_impl.lineup_cache import LineupCache, memo
from reference_impl.semantics import Semantics, first_match

Counters = Mapping[str, int]  # module_name -> stored rounds (only entries > 0 are kept)


@dataclass(frozen=True, slots=True, kw_only=True)
class SchedulerState:
    """Everything the scheduler remembers: the live host config and per-conversation counters."""

    host: HostConfig = field(default_factory=HostConfig)
    counters: Mapping[str, Counters] = field(default_factory=dict)

    def counters_of(self, conversation: str) -> Counters:
        """The stored counters of one conversation (empty when it has none)."""
        return self.counters.get(conversation, {})

    def with_counters(self, conversation: str, counters: Counters) -> SchedulerState:
        """A copy where ``conversation`` has ``counters`` (conversation dropped when empty)."""
        updated = {c: v for c, v in self.counters.items() if c != conversation}
        if counters:
            updated[conversation] = dict(counters)
        return replace(self, counters=updated)

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


def scheduler_on(host: HostConfig, semantics: Semantics) -> bool:
    """The built-in scheduler runs unless switched off or disabled by name (ACT-SCHED-1)."""
    return host.scheduler_enabled and semantics.scheduler_module not in host.disabled


def _eligible(manifest: Manifest, host: HostConfig, semantics: Semantics) -> bool:
    return is_sleep_eligible(manifest, host.strategy_for(manifest.module_name), semantics)


def _view(manifest: Manifest, state: PluginState, rounds_left: int | None, semantics: Semantics) -> PluginView:
    rules = semantics.visibility[state.value]
    return PluginView(
        module_name=manifest.module_name,
        state=state,
        rounds_left=rounds_left if rules.rounds_left else None,
        hint=rules.hint == "last_run" and rounds_left == 1,
        brief_shown=rules.brief_shown,
        methods_shown=rules.methods_shown,
        injection_called=rules.injection_called and manifest.injects_prompt,
    )


Lineup = tuple[tuple[Manifest, bool, PluginView], ...]


def _lineup(
    catalogue: Catalogue, host: HostConfig, adapter: str | None, semantics: Semantics, cache: LineupCache | None
) -> Lineup:
    """The plugins a run shows, in prompt order, each with its eligibility and its resting view.

    ACT-ORDER-1: always-awake blocks first, then the rest (active and sleeping together), each
    group by module_name. Both groups depend only on the host config and the adapter, so with
    a cache the order is computed once per host config and reused run after run; a run only
    swaps in the active view of plugins with a stored counter.
    """

    def by_name() -> tuple[Manifest, ...]:
        return tuple(sorted(catalogue.manifests.values(), key=lambda m: m.module_name))

    def compute() -> Lineup:
        on = scheduler_on(host, semantics)
        decide = eligibility_decider(semantics)
        shown = {m.module_name for m in catalogue.available(host, adapter)}
        # Per catalogue (and semantics), not per host config: the name order and the resting views.
        ordered = memo(cache, (catalogue,), "by-name", by_name)
        views: dict[tuple[str, bool], PluginView] = memo(cache, (catalogue, semantics), "resting-views", dict)
        awake: list[tuple[Manifest, bool, PluginView]] = []
        others: list[tuple[Manifest, bool, PluginView]] = []
        for manifest in ordered:
            if manifest.module_name not in shown:
                continue
            eligible = on and decide(manifest, host.strategy_for(manifest.module_name))
            key = (manifest.module_name, eligible)
            if key not in views:
                resting = PluginState.SLEEPING if eligible else PluginState.ALWAYS_AWAKE
                views[key] = _view(manifest, resting, None, semantics)
            (others if eligible else awake).append((manifest, eligible, views[key]))
        return (*awake, *others)

    return memo(cache, (catalogue, host, semantics), ("lineup", adapter), compute)


def _start_run(
    catalogue: Catalogue, state: SchedulerState, event: StartRun, semantics: Semantics, cache: LineupCache | None
) -> tuple[SchedulerState, RunObservation]:
    lineup = _lineup(catalogue, state.host, event.adapter, semantics, cache)
    if not scheduler_on(state.host, semantics):
        # ACT-SCHED-1/2: everything awake; counters are neither read nor changed.
        return state, RunObservation(plugins=tuple(view for _, _, view in lineup))
    stored = state.counters_of(event.conversation)
    if not stored:
        return state, RunObservation(plugins=tuple(view for _, _, view in lineup))
    remaining: dict[str, int] = {}
    views = []
    for manifest, eligible, resting in lineup:
        rounds = stored.get(manifest.module_name, 0) if eligible else 0
        if rounds > 0:
            views.append(_view(manifest, PluginState.ACTIVE, rounds, semantics))
            if rounds > 1:
                remaining[manifest.module_name] = rounds - 1
        else:
            views.append(resting)
    # Counters of plugins that are no longer available or eligible are not carried over (ACT-COUNT-5).
    return state.with_counters(event.conversation, remaining), RunObservation(plugins=tuple(views))


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


def _call(
    catalogue: Catalogue, state: SchedulerState, event: Call, semantics: Semantics
) -> tuple[SchedulerState, CallObservation]:
    rules = semantics.methods[event.method]
    host = state.host
    rounds = parse_rounds(event.rounds, semantics)
    manifest = catalogue.find_available(event.module_name, host, event.adapter)
    eligible = manifest is not None and scheduler_on(host, semantics) and _eligible(manifest, host, semantics)
    stored = state.counters_of(event.conversation).get(event.module_name, 0) if eligible else 0
    facts = {
        "argument": "valid" if rounds is not None else "invalid",
        "plugin": "found" if manifest is not None else "not_found",
        "sleep_eligible": eligible,
        "stored": "positive" if stored > 0 else "zero",
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
        block = _view(manifest, PluginState.ACTIVE, rounds, semantics)
        return _store(state, event.conversation, event.module_name, rounds), replace(reply, rounds=rounds, block=block)
    total = min(stored + rounds, semantics.max_active_rounds)
    return _store(state, event.conversation, event.module_name, total), replace(reply, rounds=total)


def _store(state: SchedulerState, conversation: str, module_name: str, rounds: int) -> SchedulerState:
    return state.with_counters(conversation, {**state.counters_of(conversation), module_name: rounds})


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
            allowed = ", ".join(s.value for s in Strategy)
            return state, _rejected(f"unknown strategy {event.strategy!r}; use one of {allowed}")
        strategies = {m: s for m, s in host.strategies.items() if m != event.module_name}
        if strategy is not Strategy.AUTO:  # ACT-ADMIN-2: auto is the absence of a strategy
            strategies[event.module_name] = strategy
        host = replace(host, strategies=strategies)
    elif isinstance(event, SetScheduler):
        host = replace(host, scheduler_enabled=event.enabled)
    elif isinstance(event, Enable):
        enabled = host.enabled
        if not catalogue.manifests[event.module_name].builtin and event.module_name not in enabled:
            enabled = (*enabled, event.module_name)
        host = replace(host, enabled=enabled, disabled=host.disabled - {event.module_name})
    else:
        host = replace(host, disabled=host.disabled | {event.module_name})
    return replace(state, host=host), AdminObservation(outcome=AdminOutcome.APPLIED)


def _rejected(reason: str) -> AdminObservation:
    return AdminObservation(outcome=AdminOutcome.REJECTED, reason=reason)


def step(
    catalogue: Catalogue,
    state: SchedulerState,
    event: Event,
    semantics: Semantics,
    *,
    cache: LineupCache | None = None,
) -> tuple[SchedulerState, Observation]:
    """Apply one event under ``semantics``: return the new state and what was observed.

    ``cache`` (owned by the caller) only saves work between calls; it never changes a result.
    Raises TypeError only for an object that is not an Event (misuse of the API).
    """
    if isinstance(event, StartRun):
        return _start_run(catalogue, state, event, semantics, cache)
    if isinstance(event, (Activate, Extend)):
        return _call(catalogue, state, event, semantics)
    if isinstance(event, Restart):
        # Only what was persisted survives: the state goes through its JSON form.
        return SchedulerState.from_json(state.to_json(), semantics), AdminObservation(outcome=AdminOutcome.APPLIED)
    if isinstance(event, (SetStrategy, SetScheduler, Enable, Disable)):
        return _admin(catalogue, state, event)
    raise TypeError(f"not a PAS event: {event!r}")
