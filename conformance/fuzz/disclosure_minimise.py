"""The simpler variants of a disclosure case, biggest simplifications first, for the greedy minimiser.

:func:`conformance.fuzz.minimise.minimise` walks them: one event fewer, one tool fewer, a
parallel call fewer, a batch name fewer, a thread moved to ``main``, an always-visible tool
made deferred. Variants in which a model step has no open request are skipped there (they
cannot be written as a scenario).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from conformance.fuzz.disclosure_case import DisclosureCase
from reference_impl.disclosure_commands import Clear, DisclosureEvent, EndRequest, LoadCall, ModelStep, Request, Trim


def _with(case: DisclosureCase, index: int, event: DisclosureEvent) -> DisclosureCase:
    return replace(case, events=case.events[:index] + (event,) + case.events[index + 1:])


def _fewer_events(case: DisclosureCase) -> Iterator[DisclosureCase]:
    for index in range(len(case.events) - 1):  # the last event holds the disagreement
        yield replace(case, events=case.events[:index] + case.events[index + 1:])


def _fewer_tools(case: DisclosureCase) -> Iterator[DisclosureCase]:
    for index in reversed(range(len(case.tools))):
        if len(case.tools) > 1:
            yield replace(case, tools=case.tools[:index] + case.tools[index + 1:])


def _plainer_steps(case: DisclosureCase) -> Iterator[DisclosureCase]:
    for index, event in enumerate(case.events):
        if not isinstance(event, ModelStep):
            continue
        for drop in range(len(event.calls) if len(event.calls) > 1 else 0):
            yield _with(case, index, replace(event, calls=event.calls[:drop] + event.calls[drop + 1:]))
        for at, call in enumerate(event.calls):
            if isinstance(call, LoadCall) and len(call.names) > 1:
                for drop in range(len(call.names)):
                    names = call.names[:drop] + call.names[drop + 1:]
                    simpler = replace(call, names=names, several=len(names) > 1)
                    yield _with(case, index, replace(event, calls=event.calls[:at] + (simpler,) + event.calls[at + 1:]))


def _plainer_threads(case: DisclosureCase) -> Iterator[DisclosureCase]:
    for index, event in enumerate(case.events):
        if isinstance(event, (Request, ModelStep, EndRequest, Trim, Clear)) and event.thread != "main":
            yield _with(case, index, replace(event, thread="main"))


def _plainer_tools(case: DisclosureCase) -> Iterator[DisclosureCase]:
    for index, tool in enumerate(case.tools):
        if tool.always_visible:
            yield replace(case, tools=case.tools[:index] + (replace(tool, always_visible=False),) + case.tools[index + 1:])


def candidates(case: DisclosureCase) -> Iterator[DisclosureCase]:
    """Simpler variants of ``case``, the biggest simplifications first."""
    yield from _fewer_events(case)
    yield from _fewer_tools(case)
    yield from _plainer_steps(case)
    yield from _plainer_threads(case)
    yield from _plainer_tools(case)
