"""The disclosure profile's rules as a pure state machine: ``step(state, event) -> (state, observation)``.

No I/O, no clock (time moves only with ``disclosure-idle``), no global state. The options an
implementation declares (:class:`~reference_impl.disclosure_commands.Options`) are part of the
state, so the same code executes every combination the spec allows:

* where loaded tools live (``state_scope``): per thread, one set for the whole host object
  (``instance``), derived from the thread's message history (``messages``), or nowhere past the
  request (``request``);
* how a tool becomes visible (``discovery``), who may unload (``unload``), whether one load may
  name several tools (``batch``), where a newly visible tool goes (``order``), what a call of a
  hidden tool does (``hidden_calls``) and whether loads expire while a thread is idle (``expiry``).

Every model call shows the loader tools first (as ``@role`` tokens, DISC-CAT-3), then the
visible catalogue tools: always-visible ones and loaded ones, appended in the order they became
visible (DISC-ORDER-1) or in catalogue order (DISC-ORDER-2).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from reference_impl.disclosure_answers import (
    Answer,
    DisclosureObservation,
    Done,
    InvokeAnswer,
    InvokeOutcome,
    ListAnswer,
    LoadAnswer,
    LoadOutcome,
    SearchAnswer,
    StepObservation,
    ToolsObservation,
)
from reference_impl.disclosure_commands import (
    Call,
    Clear,
    DisclosureEvent,
    DisclosureStart,
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
from reference_impl.disclosure_options import (
    Discovery,
    Expiry,
    HiddenCalls,
    Options,
    Order,
    Role,
    Scope,
    UnloadBy,
)
from reference_impl.errors import PasError
from reference_impl.frozen import EMPTY, FrozenMap


class NotApplicable(PasError, ValueError):
    """An event the declared options or the thread's state do not allow (a scenario or driver mistake)."""

    def __init__(self, *, event: str, reason: str) -> None:
        self.event = event
        self.reason = reason
        super().__init__(f"{event}: {reason}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Message:
    """One message of a thread's history; a tool message remembers what its answer loaded or unloaded."""

    role: str  # user, assistant, tool
    loads: tuple[str, ...] = ()
    unloads: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Thread:
    """One thread: its loaded tools (thread scope), history, last activity and open request."""

    loaded: tuple[str, ...] = ()
    history: tuple[Message, ...] = ()
    last_active: float = 0.0
    open: tuple[str, ...] | None = None  # the visible catalogue tools of the open request's current model call


@dataclass(frozen=True, slots=True, kw_only=True)
class DisclosureState:
    """Everything a disclosure host remembers, with the options it runs under."""

    options: Options = field(default_factory=Options)
    tools: tuple[Tool, ...] = ()
    threads: Mapping[str, Thread] = EMPTY
    shared: tuple[str, ...] = ()  # instance scope: the host object's loaded tools
    shared_active: float = 0.0
    clock: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "threads", FrozenMap.shallow(self.threads))  # Thread values are frozen already

    def thread(self, name: str) -> Thread:
        """The thread called ``name`` (empty when it has never been used)."""
        return self.threads.get(name, Thread())

    def with_thread(self, name: str, thread: Thread) -> DisclosureState:
        """A copy where ``name`` is ``thread``."""
        return replace(self, threads={**self.threads, name: thread})

    def tool(self, name: str) -> Tool | None:
        """The catalogue tool called ``name``, if any."""
        return next((t for t in self.tools if t.name == name), None)


def _distinct(names: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(names))


def _always(state: DisclosureState) -> list[str]:
    return [t.name for t in state.tools if t.always_visible]


def _with_loads(loaded: Iterable[str], loads: Iterable[str], unloads: Iterable[str]) -> tuple[str, ...]:
    """``loaded`` less ``unloads``, then ``loads`` not already there, appended in order."""
    gone = set(unloads)
    kept = [n for n in loaded if n not in gone]
    return tuple(_distinct([*kept, *loads]))


def _from_history(history: Iterable[Message]) -> tuple[str, ...]:
    """The loads a message history still holds (``messages`` scope, DISC-TRIM-2)."""
    loaded: tuple[str, ...] = ()
    for message in history:
        loaded = _with_loads(loaded, message.loads, message.unloads)
    return loaded


def persisted(state: DisclosureState, name: str) -> tuple[str, ...]:
    """What a new request on thread ``name`` starts with, besides the always-visible tools."""
    scope = state.options.state_scope
    if scope is Scope.THREAD:
        return state.thread(name).loaded
    if scope is Scope.INSTANCE:
        return state.shared
    if scope is Scope.MESSAGES:
        return _from_history(state.thread(name).history)
    return ()  # request scope: nothing outlives a request (DISC-PERSIST-1 declined)


def tool_list(state: DisclosureState, visible: Iterable[str]) -> tuple[str, ...]:
    """A model call's whole tool list: loader tokens, then the visible tools in the declared order."""
    shown = _distinct(visible)
    if state.options.order is Order.CATALOGUE:
        position = {t.name: i for i, t in enumerate(state.tools)}
        shown.sort(key=position.__getitem__)
    return (*(role.token for role in state.options.roles), *shown)


def _visible(observed: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(n for n in observed if not n.startswith("@"))


def _end(state: DisclosureState, name: str) -> DisclosureState:
    """The open request on ``name`` completes (the model answers with text); nothing when none is open."""
    thread = state.thread(name)
    if thread.open is None:
        return state
    return state.with_thread(name, replace(thread, open=None, history=(*thread.history, Message(role="assistant"))))


def _request(state: DisclosureState, event: Request) -> tuple[DisclosureState, ToolsObservation]:
    state = _end(state, event.thread)
    thread = state.thread(event.thread)
    shown = tool_list(state, [*_always(state), *persisted(state, event.thread)])
    thread = replace(thread, open=_visible(shown), history=(*thread.history, Message(role="user")),
                     last_active=state.clock)
    state = state.with_thread(event.thread, thread)
    if state.options.state_scope is Scope.INSTANCE:
        state = replace(state, shared_active=state.clock)
    return state, ToolsObservation(tools=shown)


@dataclass(slots=True)
class _Step:
    """The working set of one model step: what the current call shows and what the step changes."""

    state: DisclosureState
    current: tuple[str, ...]
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    def shown_next(self, name: str) -> bool:
        """Whether ``name`` will be in the next model call as things stand in this step."""
        return name in self.added or (name in self.current and name not in self.removed)

    def load(self, call: LoadCall) -> LoadAnswer:
        results = []
        for name in _distinct(call.names):
            if self.state.tool(name) is None:
                results.append((name, LoadOutcome.NOT_FOUND))  # DISC-LOAD-3
            elif self.shown_next(name):
                results.append((name, LoadOutcome.ALREADY_LOADED))  # DISC-LOAD-2
            else:
                self._add(name)
                results.append((name, LoadOutcome.LOADED))  # DISC-LOAD-1
        return LoadAnswer(call="load", results=tuple(results))

    def unload(self, call: LoadCall) -> LoadAnswer:
        results = []
        for name in _distinct(call.names):
            tool = self.state.tool(name)
            if name.startswith("@"):
                outcome = LoadOutcome.REFUSED if name in self.current_roles() else LoadOutcome.NOT_FOUND
            elif tool is None:
                outcome = LoadOutcome.NOT_FOUND
            elif tool.always_visible:
                outcome = LoadOutcome.REFUSED  # DISC-UNLOAD-2
            elif self.shown_next(name):
                self._remove(name)
                outcome = LoadOutcome.UNLOADED  # DISC-UNLOAD-1
            else:
                outcome = LoadOutcome.NOT_LOADED
            results.append((name, outcome))
        return LoadAnswer(call="unload", results=tuple(results))

    def search(self, call: SearchCall) -> SearchAnswer:
        found = tuple(t.name for t in self.state.tools if not t.always_visible and matches(call.query, t))
        if self.state.options.discovery is not Discovery.SEARCH_LOADS:
            return SearchAnswer(found=found)  # DISC-SEARCH-1
        loaded = tuple(n for n in found if not self.shown_next(n))
        for name in loaded:
            self._add(name)  # DISC-SEARCH-2
        return SearchAnswer(found=found, loaded=loaded)

    def listing(self) -> ListAnswer:
        return ListAnswer(listed=tuple((t.name, t.name in self.current) for t in self.state.tools))  # DISC-LIST-1

    def invoke(self, call: InvokeCall) -> InvokeAnswer:
        if self.state.tool(call.name) is None:
            return InvokeAnswer(name=call.name, outcome=InvokeOutcome.NOT_FOUND)
        if call.name in self.current or self.state.options.hidden_calls is HiddenCalls.EXECUTED:
            return InvokeAnswer(name=call.name, outcome=InvokeOutcome.EXECUTED)  # DISC-CALL-2, DISC-CALL-3
        return InvokeAnswer(name=call.name, outcome=InvokeOutcome.REFUSED)  # DISC-CALL-1

    def current_roles(self) -> tuple[str, ...]:
        return tuple(role.token for role in self.state.options.roles)

    def _add(self, name: str) -> None:
        if name in self.removed:
            self.removed.remove(name)
        if name not in self.current:
            self.added.append(name)

    def _remove(self, name: str) -> None:
        if name in self.added:
            self.added.remove(name)
        else:
            self.removed.append(name)


def matches(query: str, tool: Tool) -> bool:
    """Whether ``tool`` answers a search for ``query``: every word of the query is a word of its name or description.

    Words are runs of letters and digits, compared in lower case. Hosts rank with BM25 or
    embeddings; the suite only asks queries every such ranking agrees on (a tool's exact name,
    or words no tool has).
    """
    words = set(_words(tool.name)) | set(_words(tool.description))
    wanted = _words(query)
    return bool(wanted) and all(w in words for w in wanted)


def _words(text: str) -> list[str]:
    return [w.lower() for w in re.findall(r"[^\W_]+", text)]


def _answer(work: _Step, call: Call) -> Answer:
    options = work.state.options
    if isinstance(call, LoadCall):
        role = Role.UNLOAD if call.unload else Role.LOAD
        if role not in options.roles or (call.several and not options.batch):
            raise NotApplicable(event="disclosure-step", reason=f"{call.key} is not offered under the declared options")
        return work.unload(call) if call.unload else work.load(call)
    if isinstance(call, SearchCall):
        if Role.SEARCH not in options.roles:
            raise NotApplicable(event="disclosure-step", reason="search is not offered under the declared options")
        return work.search(call)
    if isinstance(call, ListCall):
        if Role.LIST not in options.roles:
            raise NotApplicable(event="disclosure-step", reason="list is not offered under the declared options")
        return work.listing()
    return work.invoke(call)


def _model_step(state: DisclosureState, event: ModelStep) -> tuple[DisclosureState, StepObservation]:
    thread = state.thread(event.thread)
    if thread.open is None:
        raise NotApplicable(event="disclosure-step", reason=f"thread {event.thread!r} has no open request")
    work = _Step(state=state, current=thread.open)
    answers = tuple(_answer(work, call) for call in event.calls)
    shown = tool_list(state, [*(n for n in thread.open if n not in work.removed), *work.added])
    messages = [Message(role="assistant")]
    messages += [_tool_message(answer) for answer in answers]
    thread = replace(thread, open=_visible(shown), history=(*thread.history, *messages), last_active=state.clock)
    scope = state.options.state_scope
    if scope is Scope.THREAD:
        thread = replace(thread, loaded=_with_loads(thread.loaded, work.added, work.removed))
    state = state.with_thread(event.thread, thread)
    if scope is Scope.INSTANCE:
        state = replace(state, shared=_with_loads(state.shared, work.added, work.removed), shared_active=state.clock)
    return state, StepObservation(answers=answers, tools=shown)


def _tool_message(answer: Answer) -> Message:
    """The tool message that carries ``answer``; under ``messages`` scope it is where a load lives."""
    if isinstance(answer, LoadAnswer):
        loads = tuple(n for n, o in answer.results if o is LoadOutcome.LOADED)
        unloads = tuple(n for n, o in answer.results if o is LoadOutcome.UNLOADED)
        return Message(role="tool", loads=loads, unloads=unloads)
    if isinstance(answer, SearchAnswer):
        return Message(role="tool", loads=answer.loaded)
    return Message(role="tool")


def _rebuild(state: DisclosureState, event: Rebuild) -> DisclosureState:
    """A new host object: open requests end; the store is kept or reset (DISC-PERSIST-4)."""
    for name in list(state.threads):
        state = _end(state, name)
    if event.store is Store.RESET:
        return replace(state, threads={}, shared=())
    if state.options.state_scope is Scope.INSTANCE:
        return replace(state, shared=())  # the loaded set lived on the object that is gone
    return state


def _trim(state: DisclosureState, event: Trim) -> DisclosureState:
    thread = state.thread(event.thread)
    kept = thread.history[len(thread.history) - event.keep:] if event.keep else ()
    return state.with_thread(event.thread, replace(thread, history=kept))


def _idle(state: DisclosureState, event: Idle) -> DisclosureState:
    """Time passes; under ``expiry: idle`` the loads of what was untouched for too long go (DISC-PERSIST-5)."""
    state = replace(state, clock=state.clock + event.seconds)
    limit = state.options.expiry_seconds
    if state.options.expiry is not Expiry.IDLE or limit is None:
        return state
    threads = {name: replace(t, loaded=()) if state.clock - t.last_active > limit else t
               for name, t in state.threads.items()}
    shared = () if state.clock - state.shared_active > limit else state.shared
    return replace(state, threads=threads, shared=shared)


def _clear(state: DisclosureState, event: Clear) -> DisclosureState:
    if UnloadBy.HOST not in state.options.unload:
        raise NotApplicable(event="disclosure-clear", reason="the declared options offer no host-side clear")
    if state.options.state_scope is Scope.INSTANCE:
        return replace(state, shared=())
    return state.with_thread(event.thread, replace(state.thread(event.thread), loaded=()))  # DISC-UNLOAD-3


def start(options: Options, event: DisclosureStart) -> DisclosureState:
    """A fresh state with ``event``'s catalogue under ``options``."""
    return DisclosureState(options=options, tools=event.tools)


def step(state: DisclosureState, event: DisclosureEvent) -> tuple[DisclosureState, DisclosureObservation]:
    """Apply one disclosure event: the new state and what the model (or the host) saw.

    Raises NotApplicable for an event the declared options do not offer (a call of a loader the
    options do not imply, a host clear without ``unload: host``) or a model step on a thread with
    no open request; TypeError for an object that is not a disclosure event.
    """
    if isinstance(event, DisclosureStart):
        return start(state.options, event), Done()
    if isinstance(event, Request):
        return _request(state, event)
    if isinstance(event, ModelStep):
        return _model_step(state, event)
    if isinstance(event, EndRequest):
        return _end(state, event.thread), Done()
    if isinstance(event, Rebuild):
        return _rebuild(state, event), Done()
    if isinstance(event, Trim):
        return _trim(state, event), Done()
    if isinstance(event, Idle):
        return _idle(state, event), Done()
    if isinstance(event, Clear):
        return _clear(state, event), Done()
    raise TypeError(f"not a disclosure event: {event!r}")
