"""Disclosure fuzz cases from tables of values, one ``choose(options)`` function at a time.

The same shape as :mod:`conformance.fuzz.generate`: every value is a row of a table here,
picked by ``random.Random(seed).choice``. A case is a catalogue of two to six tools (some
always visible, in a random rotation of the table's order) and a sequence of the events the
declaration allows: requests on three threads, model steps of one to three parallel calls in
a thread with an open request (loads and unloads of catalogue names, always-visible names,
an unknown name and loader tokens, repeated names in a batch; searches by a tool's exact name
or by words no tool has, so that every host's ranking agrees; listings; calls of any tool),
ends of requests, rebuilds with the store kept or reset, trims of a thread's history, idle
time (shorter and far longer than any declared expiry), host clears. Only the calls the
declared options offer are made (a scenario could not run otherwise), and a case uses one of
the two kinds of unload at most (a scenario's ``requires`` names one).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from conformance.fuzz.disclosure_case import DisclosureCase
from reference_impl.disclosure_commands import (
    Call,
    Clear,
    DisclosureEvent,
    EndRequest,
    Idle,
    InvokeCall,
    ListCall,
    LoadCall,
    ModelStep,
    Rebuild,
    Request,
    SearchCall,
    Store,
    Tool,
    Trim,
)
from reference_impl.disclosure_options import Options, Role, UnloadBy

Choose = Callable[[Sequence[Any]], Any]

#: Catalogue tools: a name, and a description in which no other tool's name is a word.
TOOL_ROWS: Final = (("weather", "Current weather and forecast for a city"), ("calendar", "Read and create events"),
                    ("github", "Issues and pull requests of a repository"), ("translate", "Text between languages"),
                    ("clock", "The current date and time"), ("stocks", "Share prices by ticker"))
UNKNOWN_TOOL: Final = "nope"
THREADS: Final = ("main",) * 4 + ("b", "c")
#: Queries every ranking agrees on: a tool's exact name, or words no tool has.
NO_MATCH: Final = "zyzzyva quokka"
SIZES: Final = (2, 3, 3, 4, 4, 5, 6)
ALWAYS: Final = (False, False, False, True)
HEADS: Final = ("request",) * 5 + ("step",) * 10 + ("end",) * 3 + ("rebuild",) + ("trim",) + ("idle",) + ("clear",)
CALL_COUNTS: Final = (1, 1, 1, 1, 2, 3)
SHORT_AND_LONG: Final = (1, 1, 10_000_000)  # seconds: within and far past any declared expiry
MAX_STEPS: Final = 30


def build_tools(choose: Choose) -> tuple[Tool, ...]:
    """Two to six tools of :data:`TOOL_ROWS`, a rotation of its order, a quarter of them always visible."""
    start = choose(range(len(TOOL_ROWS)))
    rows = (TOOL_ROWS[start:] + TOOL_ROWS[:start])[: choose(SIZES)]
    return tuple(Tool(name=name, description=description, always_visible=choose(ALWAYS)) for name, description in rows)


def _names(choose: Choose, tools: tuple[Tool, ...], declared: Options, *, unload: bool) -> LoadCall:
    """A load (or unload) of catalogue names, now and then an unknown one or a loader; a batch when declared."""
    pool = [t.name for t in tools] * 3 + [UNKNOWN_TOOL] + (["@load", "@unload"] if unload else [])
    if declared.batch and choose((False, False, True)):
        return LoadCall(names=tuple(choose(pool) for _ in range(choose((2, 2, 3)))), several=True, unload=unload)
    return LoadCall(names=(choose(pool),), unload=unload)


def build_call(choose: Choose, tools: tuple[Tool, ...], declared: Options, unload: UnloadBy | None) -> Call:
    """One call the declaration offers: load, unload (when the case unloads by the model), search, list or invoke."""
    roles = declared.roles
    kinds = ["invoke"] + ["load"] * 3 * (Role.LOAD in roles) + ["search"] * 2 * (Role.SEARCH in roles)
    kinds += ["list"] * (Role.LIST in roles) + ["unload"] * 2 * (unload is UnloadBy.MODEL and Role.UNLOAD in roles)
    kind = choose(kinds)
    if kind in ("load", "unload"):
        return _names(choose, tools, declared, unload=kind == "unload")
    if kind == "search":
        return SearchCall(query=choose([t.name for t in tools] + [NO_MATCH]))
    if kind == "list":
        return ListCall()
    return InvokeCall(name=choose([t.name for t in tools] + [UNKNOWN_TOOL]))


class _Threads:
    """The open requests while a case is built: a model step goes to a thread that has one."""

    def __init__(self) -> None:
        self.open: list[str] = []

    def opened(self, thread: str) -> None:
        if thread not in self.open:
            self.open.append(thread)


def build_event(choose: Choose, tools: tuple[Tool, ...], declared: Options, unload: UnloadBy | None,
                threads: _Threads) -> DisclosureEvent:
    """One event the declaration allows; a model step or an end only where a request is open."""
    head = choose(HEADS)
    if head in ("step", "end") and not threads.open:
        head = "request"
    if head == "clear" and unload is not UnloadBy.HOST:
        head = "idle"
    if head == "request":
        thread = choose(THREADS)
        threads.opened(thread)
        return Request(thread=thread)
    if head == "step":
        calls = tuple(build_call(choose, tools, declared, unload) for _ in range(choose(CALL_COUNTS)))
        return ModelStep(thread=choose(threads.open), calls=calls)
    if head == "end":
        thread = choose(threads.open)
        threads.open.remove(thread)
        return EndRequest(thread=thread)
    if head == "rebuild":
        threads.open.clear()
        return Rebuild(store=choose((Store.KEPT, Store.KEPT, Store.RESET)))
    if head == "trim":
        return Trim(thread=choose(THREADS), keep=choose((0, 0, 1, 2, 4)))
    if head == "clear":
        return Clear(thread=choose(THREADS))
    return Idle(seconds=choose(SHORT_AND_LONG))


def _unload_kind(choose: Choose, declared: Options) -> UnloadBy | None:
    kinds = sorted(declared.unload)
    return choose(kinds) if kinds else None


def build_disclosure_case(choose: Choose, steps: int, declared: Options) -> DisclosureCase:
    """A whole case under ``declared``: a catalogue and ``steps`` events."""
    tools = build_tools(choose)
    unload = _unload_kind(choose, declared)
    threads = _Threads()
    events = tuple(build_event(choose, tools, declared, unload, threads) for _ in range(steps))
    return DisclosureCase(tools=tools, declared=declared, events=events, unload=unload)


def generate_disclosure_case(seed: int, steps: int, declared: Options) -> DisclosureCase:
    """The case of ``seed`` under ``declared``: the same seed, length and declaration give the same case anywhere."""
    return build_disclosure_case(random.Random(seed).choice, steps, declared)
