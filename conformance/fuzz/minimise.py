"""A greedy pass that makes a disagreeing case smaller: ``pas fuzz``'s only shrinker.

:mod:`conformance.fuzz.search` hands it the first case that disagrees, whatever the kind of
failure (a wrong answer, a crash or a hang, which may cost a whole timeout per replay), with a
cap on replays and a deadline. It guarantees local minimality: no single step or plugin can be
dropped, and no host setting or argument reset to its default, without losing the
disagreement. It is deterministic, so ``--seed`` reproduces what it gives. (The Hypothesis
state machine of :mod:`conformance.fuzz.stateful` shrinks with Hypothesis instead.)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from conformance.fuzz.case import MAIN, Case, in_conversation
from conformance.fuzz.generate import NAMES, SCHEDULER, UNKNOWN
from conformance.fuzz.plugin_shapes import CLASSIC_BRIEF, PLAIN_DESCRIPTION, descriptions_of, reshaped, title
from reference_impl.events import OMITTED, Activate, Event, Extend


class _Writable(Protocol):
    def written_steps(self) -> Any: ...


C = TypeVar("C", bound=_Writable)


def _fewer_steps(case: Case) -> Iterator[Case]:
    events = case.events
    for index in range(len(events) - 1):  # the last step holds the disagreement
        yield replace(case, events=events[:index] + events[index + 1:])


def _fewer_plugins(case: Case) -> Iterator[Case]:
    for plugin in reversed(case.plugins):
        yield case.without_plugin(plugin.module_name)


def _plainer_host(case: Case) -> Iterator[Case]:
    host = case.host
    if not host.scheduler_enabled:
        yield replace(case, host=replace(host, scheduler_enabled=True))
    if UNKNOWN in host.enabled:
        yield replace(case, host=replace(host, enabled=tuple(n for n in host.enabled if n != UNKNOWN)))
    for name in sorted(host.disabled):
        yield replace(case, host=replace(host, disabled=host.disabled - {name}))
    for name in sorted(host.strategies):
        yield replace(case, host=replace(host, strategies={m: s for m, s in host.strategies.items() if m != name}))
    left_out = [m.module_name for m in case.plugins if not m.builtin and m.module_name not in host.enabled]
    for name in left_out:
        yield replace(case, host=replace(host, enabled=(*host.enabled, name)))


def _plainer_events(case: Case) -> Iterator[Case]:
    for index, event in enumerate(case.events):
        simpler: list[Event] = []
        if isinstance(event, (Activate, Extend)) and event.rounds is not OMITTED:
            simpler.append(replace(event, rounds=OMITTED))
        if getattr(event, "conversation", MAIN) != MAIN:
            simpler.append(in_conversation(event, MAIN))
        for candidate in simpler:
            yield replace(case, events=case.events[:index] + (candidate,) + case.events[index + 1:])


def _plainer_plugins(case: Case) -> Iterator[Case]:
    for index, plugin in enumerate(case.plugins):
        for change in ({"injects_prompt": False}, {"support_adapter": ()}, {"builtin": False}):
            key, value = next(iter(change.items()))
            if getattr(plugin, key) == value or (key == "builtin" and plugin.module_name == "plugin_activation"):
                continue
            simpler = replace(plugin, **change)
            host = case.host
            if key == "builtin" and plugin.module_name not in host.enabled:
                host = replace(host, enabled=(*host.enabled, plugin.module_name))
            yield replace(case, plugins=case.plugins[:index] + (simpler,) + case.plugins[index + 1:], host=host)


def _plainer_shapes(case: Case) -> Iterator[Case]:
    """Each plugin with a method fewer, a plain description, its title as display name, or the classic brief."""
    for index, plugin in enumerate(case.plugins):
        if plugin.module_name == SCHEDULER:
            continue
        shapes: list[dict[str, Any]] = []
        descriptions = descriptions_of(plugin)
        shapes += [{"descriptions": descriptions[:at] + descriptions[at + 1:]} for at in range(len(descriptions))]
        shapes += [{"descriptions": descriptions[:at] + (PLAIN_DESCRIPTION,) + descriptions[at + 1:]}
                   for at, text in enumerate(descriptions) if text != PLAIN_DESCRIPTION]
        if plugin.name != title(plugin.module_name):
            shapes.append({"display": None})
        if plugin.sleep_brief != CLASSIC_BRIEF:
            shapes.append({"brief": CLASSIC_BRIEF})
        for shape in shapes:
            simpler = reshaped(plugin, **shape)
            yield replace(case, plugins=case.plugins[:index] + (simpler,) + case.plugins[index + 1:])


def _earlier_names(case: Case) -> Iterator[Case]:
    """Plugins renamed to the first free name of alpha, beta, ...: "alpha" reads simpler than "theta" or "Plugin_b"."""
    taken = {m.module_name for m in case.plugins}
    for plugin in case.plugins:
        if plugin.module_name == SCHEDULER:
            continue
        earlier = NAMES[: NAMES.index(plugin.module_name)] if plugin.module_name in NAMES else NAMES
        name = next((n for n in earlier if n not in taken), None)
        if name is not None:
            yield case.renamed(plugin.module_name, name, reshaped(plugin, name=name))


def candidates(case: Case) -> Iterator[Case]:
    """Simpler variants of ``case``, the biggest simplifications first."""
    yield from _fewer_steps(case)
    yield from _fewer_plugins(case)
    yield from _plainer_host(case)
    yield from _plainer_events(case)
    yield from _plainer_plugins(case)
    yield from _plainer_shapes(case)
    yield from _earlier_names(case)


def minimise(case: C, still_disagrees: Callable[[C], bool], *, max_tries: int = 400,
             deadline: float | None = None, variants: Callable[[C], Iterator[C]] | None = None) -> C:
    """The smallest case reachable from ``case`` one simplification at a time that still disagrees.

    ``variants`` gives a case's simpler variants (an activation :class:`Case`'s
    :func:`candidates` unless given; :func:`conformance.fuzz.disclosure_minimise.candidates`
    for a disclosure case). Stops after ``max_tries`` replays or at ``deadline`` (a
    ``time.monotonic()`` value), returning the smallest disagreeing case found so far.
    """
    simpler: Callable[[Any], Iterator[Any]] = variants if variants is not None else candidates
    tries = 0
    improved = True
    while improved:
        improved = False
        for candidate in simpler(case):
            if tries >= max_tries or (deadline is not None and time.monotonic() >= deadline):
                return case
            if candidate.written_steps() is None:
                continue  # e.g. a run moved to another adapter is gone, and a later run would need no adapter
            tries += 1
            if still_disagrees(candidate):
                case, improved = candidate, True
                break
    return case
