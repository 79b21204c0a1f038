"""The activation scheduler as a pure state machine: ``step(catalogue, state, event, semantics)``.

No I/O, no clock, no logging, no global state: the same inputs always give the same new
state and observation, so any sequence of events can be replayed. The decision tables
(eligibility, visibility, call outcomes) and the constants are the ``semantics`` the caller
passes (``semantics.load_semantics()`` reads the bundled spec/semantics.yaml); counting and
the state transitions are the code below. A caller that steps many events may pass a
:class:`~reference_impl.lineup_cache.LineupCache` it owns; the results are the same without.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from itertools import count, filterfalse
from typing import Any

from reference_impl.catalogue import Catalogue
from reference_impl.eligibility import eligibility_decider, is_sleep_eligible, sleep_eligible_names
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
from reference_impl.lineup_cache import LineupCache, memo
from reference_impl.model import AdminOutcome, HostConfig, Manifest, OutcomeKind, PluginState, Strategy
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
        methods_shown=rules.methods_shown and any(m.description for m in manifest.methods),  # ACT-STATE-8
        injection_called=rules.injection_called and manifest.injects_prompt,
    )


class _RestingViews(dict[str, PluginView]):
    """Each plugin's view in one resting state, built the first time a lineup shows it there."""

    __slots__ = ("_manifests", "_state", "_semantics")

    def __init__(self, manifests: Mapping[str, Manifest], state: PluginState, semantics: Semantics) -> None:
        super().__init__()
        self._manifests, self._state, self._semantics = manifests, state, semantics

    def __missing__(self, module_name: str) -> PluginView:
        view = self[module_name] = _view(self._manifests[module_name], self._state, None, self._semantics)
        return view


@dataclass(frozen=True, slots=True, kw_only=True)
class _CatalogueFacts:
    """What every lineup of one catalogue under one semantics shares, whatever the host config.

    The resting views are kept (one object per plugin and state) so that runs under any host
    config show the very same view objects, which the text cache finds by identity.
    """

    names: tuple[str, ...]  # every installed plugin, by module_name
    builtins: frozenset[str]  # loaded whatever the enabled list says (HOST-LOAD-1)
    auto: frozenset[str]  # those that may sleep under the auto strategy
    restricted: Mapping[str, tuple[str, ...]]  # plugins limited to some adapters, and those adapters
    sleeping: _RestingViews
    awake: _RestingViews
    hidden: dict[str, frozenset[str]] = field(default_factory=dict)  # by adapter, filled when first asked

    @classmethod
    def of(cls, catalogue: Catalogue, semantics: Semantics) -> _CatalogueFacts:
        """Decide every plugin once, under auto; the resting views are built as lineups ask."""
        manifests = catalogue.manifests
        return cls(
            names=tuple(sorted(manifests)),
            builtins=frozenset(m.module_name for m in manifests.values() if m.builtin),
            auto=sleep_eligible_names(manifests.values(), Strategy.AUTO, semantics),
            restricted={m.module_name: m.support_adapter for m in manifests.values() if m.support_adapter},
            sleeping=_RestingViews(manifests, PluginState.SLEEPING, semantics),
            awake=_RestingViews(manifests, PluginState.ALWAYS_AWAKE, semantics),
        )

    def hidden_on(self, adapter: str | None) -> frozenset[str]:
        """The plugins a conversation on ``adapter`` cannot see, whatever the host config."""
        if adapter is None:
            return frozenset()
        if adapter not in self.hidden:
            self.hidden[adapter] = frozenset(m for m, adapters in self.restricted.items() if adapter not in adapters)
        return self.hidden[adapter]

    def available(self, host: HostConfig, adapter: str | None) -> list[str]:
        """The plugins a conversation on ``adapter`` can see, by name (ACT-STATE-5).

        Loaded (a built-in or enabled), not disabled and supporting the adapter: one set of
        names, no per-plugin Python.
        """
        shown = set(host.enabled)  # not-installed names drop out as only installed names are tested
        shown.update(self.builtins)
        shown.difference_update(host.disabled)
        shown.difference_update(self.hidden_on(adapter))
        return [*filter(shown.__contains__, self.names)]


@dataclass(frozen=True, slots=True, kw_only=True)
class _Lineup:
    """The plugins a run shows: resting views in prompt order, and which of them may sleep.

    The eligible plugins come last (ACT-ORDER-1), by name; ``sleepers`` says where each one's
    view is, so that a run finds the plugins with a stored counter without a search.
    """

    views: tuple[PluginView, ...]
    sleepers: Mapping[str, int]  # module_name -> position of its view, for the plugins that may sleep


def _may_sleep(
    catalogue: Catalogue, host: HostConfig, facts: _CatalogueFacts, semantics: Semantics
) -> AbstractSet[str]:
    """The installed plugins that may sleep under ``host``: auto's set, with named strategies decided again."""
    if not scheduler_on(host, semantics):
        return frozenset()
    manifests = catalogue.manifests
    named = [m for m in host.strategies if m in manifests]
    if not named:
        return facts.auto
    decide = eligibility_decider(semantics)
    return facts.auto.difference(named).union([m for m in named if decide(manifests[m], host.strategies[m])])


def _lineup(
    catalogue: Catalogue, host: HostConfig, adapter: str | None, semantics: Semantics, cache: LineupCache | None
) -> _Lineup:
    """The plugins a run shows: their resting views in prompt order, positions and eligibility.

    ACT-ORDER-1: always-awake blocks first, then the rest (active and sleeping together), each
    group by module_name. Both groups depend only on the host config and the adapter, so with
    a cache the order is computed once per host config and reused run after run; a run only
    swaps in the active view of plugins with a stored counter. What does not depend on the
    host config (name order, eligibility under auto, resting views) is kept per catalogue, so
    a config change costs set operations over names, not per-plugin decisions.
    """

    def compute() -> _Lineup:
        facts = memo(cache, (catalogue, semantics), "facts", lambda: _CatalogueFacts.of(catalogue, semantics))
        eligible = _may_sleep(catalogue, host, facts, semantics)
        listed = facts.available(host, adapter)
        asleep = [*filter(eligible.__contains__, listed)]
        awake = [*map(facts.awake.__getitem__, filterfalse(eligible.__contains__, listed))]
        return _Lineup(views=(*awake, *map(facts.sleeping.__getitem__, asleep)),
                       sleepers=dict(zip(asleep, count(len(awake)))))

    return memo(cache, (catalogue, host, semantics), ("lineup", adapter), compute)


def _start_run(
    catalogue: Catalogue, state: SchedulerState, event: StartRun, semantics: Semantics, cache: LineupCache | None
) -> tuple[SchedulerState, RunObservation]:
    lineup = _lineup(catalogue, state.host, event.adapter, semantics, cache)
    stored = state.counters_of(event.conversation)
    if not scheduler_on(state.host, semantics) or not stored:
        # ACT-SCHED-1/2: with the scheduler off everything is awake; counters are neither read nor changed.
        return state, RunObservation(plugins=lineup.views)
    # Only plugins with a stored counter change their view.
    counted = [(p, m) for m in stored if (p := lineup.sleepers.get(m)) is not None]
    remaining: dict[str, int] = {}
    views = list(lineup.views)
    for position, module_name in counted:
        rounds = stored[module_name]
        views[position] = _view(catalogue.manifests[module_name], PluginState.ACTIVE, rounds, semantics)
        if rounds > 1:
            remaining[module_name] = rounds - 1
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
    return f"unknown strategy {value!r}; {hint}use one of {', '.join(allowed)}"


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
