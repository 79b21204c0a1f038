"""The one table of scenario steps: each event and host command, as a scenario file writes it.

One :class:`~conformance.documents.step_form.StepRow` per event class (``reference_impl.events``),
host command (``reference_impl.host_commands``) and disclosure event
(``reference_impl.disclosure_commands``, but ``disclosure-start``, which every disclosure scenario
sends first with its catalogue): the keys of its step value with their defaults, the key a bare
value stands for, its words on the scenario pages and its ``pas simulate`` command. Its scenario
key is its wire ``cmd`` with ``_`` for ``-``, or the row's own ``name`` (the disclosure steps:
``request``, ``model_step``, ``end_request``, ``rebuild``, ``trim_history``, ``idle``,
``clear_state``). The model's calls of a ``model_step`` have ``pas simulate`` commands of their
own (:data:`CALL_SCRIPTS`). Everything that reads or
writes steps reads this table: the scenario loader (conformance.suite.scenario), the fuzz emitter
and labels (conformance.fuzz), ``pas simulate`` (conformance.tools.simulate.script and its
``--help``) and the scenario pages (conformance.docs_gen.scenario_pages). Adding an event is its
class, its protocol schemas and one row here; the scenario schema gets its key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from conformance.documents.step_form import (
    Arg,
    ArgKind,
    FromContext,
    Key,
    Script,
    StepContext,
    StepRow,
    Unwritable,
    Words,
)
from reference_impl.disclosure_commands import (
    Call,
    Clear,
    DisclosureEvent,
    EndRequest,
    Idle,
    ListCall,
    LoadCall,
    ModelStep,
    Rebuild,
    Request,
    SearchCall,
    Store,
    Trim,
    call_from_json,
)
from reference_impl.errors import MalformedDocument
from reference_impl.events import (
    OMITTED,
    Activate,
    Disable,
    Enable,
    Event,
    Extend,
    Restart,
    SetScheduler,
    SetStrategy,
    StartRun,
)
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

DEFAULT_CONVERSATION: Final = "main"
DEFAULT_THREAD: Final = "main"

# --------------------------------------------------------------------------- keys shared by rows

_CONVERSATION = Key("conversation", DEFAULT_CONVERSATION)
# A run or call is on its conversation's adapter unless the step names another (ACT-STATE-7).
_ADAPTER_DEFAULT = FromContext(lambda context, fields: context.adapters.get(fields["conversation"]))


def _adapter_json(adapter: str | None) -> str:
    if adapter is None:  # the schema's adapter is a non-empty string: there is no way to write "none"
        raise Unwritable("a step cannot say 'no adapter' in a conversation that has one")
    return adapter


_ADAPTER = Key("adapter", _ADAPTER_DEFAULT, write=_adapter_json)
# A run that names an adapter moves its conversation there for the steps after it (ACT-STATE-7).
_RUN_ADAPTER = Key("adapter", _ADAPTER_DEFAULT, write=_adapter_json, moves_adapter=True)
_MODULE = Key("module_name")


def _from_load(name: str) -> FromContext:
    """The scenario's own value of a Load field: what a host_load step replaces."""
    return FromContext(lambda context, _: getattr(context.load, name))


# --------------------------------------------------------------------------- words on the scenario pages


def _in(conversation: str, words: Words, default: str = DEFAULT_CONVERSATION) -> str:
    if conversation == default:
        return ""
    return words.t(" in {conversation}").format(conversation=words.code(conversation))


def _says(english: str, **fields: str) -> Any:
    """Prose that is one fixed sentence, each ``{placeholder}`` filled with a field as inline code."""
    return lambda event, words: words.t(english).format(
        **{placeholder: words.code(getattr(event, name)) for placeholder, name in fields.items()})


def _run_prose(event: StartRun, words: Words) -> str:
    adapter = words.t(" (adapter {adapter})").format(adapter=words.code(event.adapter)) if event.adapter else ""
    return words.t("run") + _in(event.conversation, words) + adapter


def _call_prose(method: str) -> Any:
    def prose(event: Activate | Extend, words: Words) -> str:
        args = [words.code(event.module_name)]
        if event.rounds is not OMITTED:
            args.append(f"rounds={words.value(event.rounds)}")
        return f"{method}({', '.join(args)})" + _in(event.conversation, words)

    return prose


def _strategy_prose(event: SetStrategy, words: Words) -> str:
    return words.t("admin: strategy of {plugin} → {strategy}").format(
        plugin=words.code(event.module_name), strategy=words.value(event.strategy))


def _scheduler_prose(event: SetScheduler, words: Words) -> str:
    return words.t("admin: scheduler on") if event.enabled else words.t("admin: scheduler off")


def _dispatch_prose(event: Dispatch, words: Words) -> str:
    return words.t("host: dispatch {hook}").format(hook=words.code(event.hook)) + _in(event.conversation, words, "")


def _call_words(call: Call, words: Words) -> str:
    if isinstance(call, LoadCall):
        return f"{call.key} " + ", ".join(words.code(n) for n in call.names)
    if isinstance(call, SearchCall):
        return words.t("search {query}").format(query=words.value(call.query))
    if isinstance(call, ListCall):
        return words.t("list the catalogue")
    return words.t("call {tool}").format(tool=words.code(call.name))


def _request_prose(event: Request, words: Words) -> str:
    return words.t("request") + _in(event.thread, words, DEFAULT_THREAD)


def _model_step_prose(event: ModelStep, words: Words) -> str:
    calls = "; ".join(_call_words(call, words) for call in event.calls) or words.t("no call")
    return words.t("model step: {calls}").format(calls=calls) + _in(event.thread, words, DEFAULT_THREAD)


def _rebuild_prose(event: Rebuild, words: Words) -> str:
    return words.t("rebuild the host, store kept") if event.store is Store.KEPT else words.t(
        "rebuild the host, store reset")


def _trim_prose(event: Trim, words: Words) -> str:
    return words.t("trim the history to the last {keep} messages").format(keep=words.value(event.keep)) + _in(
        event.thread, words, DEFAULT_THREAD)


def _idle_prose(event: Idle, words: Words) -> str:
    seconds = int(event.seconds) if event.seconds.is_integer() else event.seconds
    return words.t("idle for {seconds} s").format(seconds=words.value(seconds))


def _thread_prose(english: str) -> Any:
    return lambda event, words: words.t(english) + _in(event.thread, words, DEFAULT_THREAD)


# --------------------------------------------------------------------------- pas simulate arguments

_MODULE_ARG = Arg("module_name", "MODULE")
_CALL_ARGS = (_MODULE_ARG, Arg("rounds", "ROUNDS", ArgKind.JSON, optional=True),
              Arg("conversation", "CONV", optional=True, keyword="in"))

_THREAD_ARG = Arg("thread", "THREAD", optional=True)
_IN_THREAD = Arg("thread", "THREAD", optional=True, keyword="in")


@dataclass(frozen=True, slots=True)
class CallScript:
    """A ``pas simulate`` command for one call of a model step: its script, and the call it makes of its arguments.

    ``call`` turns the arguments (step keys, as :class:`Script` fills them) into the call's
    scenario form (``{"load": ...}``); several commands joined by ``&`` make one step.
    """

    script: Script
    call: Callable[[Mapping[str, Any]], dict[str, Any]]


def _names_call(key: str) -> Callable[[Mapping[str, Any]], dict[str, Any]]:
    return lambda given: {key: given["names"][0] if len(given["names"]) == 1 else list(given["names"])}


#: The model's calls in ``pas simulate``, each one call of a model step (``load a & invoke b``: one step, two calls).
CALL_SCRIPTS: Final[Mapping[str, CallScript]] = {
    "load": CallScript(Script("load", "the model loads tools (several names: one batch call)",
                              (Arg("names", "NAME", ArgKind.NAMES),)), _names_call("load")),
    "unload": CallScript(Script("unload", "the model unloads tools", (Arg("names", "NAME", ArgKind.NAMES),)),
                         _names_call("unload")),
    "search": CallScript(Script("search", "the model searches the catalogue (the words are the query)",
                                (Arg("names", "WORD", ArgKind.NAMES),)),
                         lambda given: {"search": " ".join(given["names"])}),
    "list": CallScript(Script("list", "the model lists the catalogue"), lambda given: {"list": None}),
    "invoke": CallScript(Script("invoke", "the model calls a catalogue tool", (Arg("name", "TOOL"),)),
                         lambda given: {"invoke": given["name"]}),
}
#: What joins the calls of one model step in ``pas simulate``, and what names the step's thread.
CALL_JOINER: Final = "&"


def _calls_json(calls: tuple[Call, ...]) -> list[dict[str, Any]]:
    return [call.to_json() for call in calls]


def _read_calls(value: Any) -> tuple[Call, ...]:
    if not isinstance(value, list):
        raise MalformedDocument(field="model_step.calls", reason="must be a list of calls")
    return tuple(call_from_json(call) for call in value)


def _seconds(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise MalformedDocument(field="idle.seconds", reason="must be a number of seconds")
    return float(value)


_THREAD = Key("thread", DEFAULT_THREAD)

# --------------------------------------------------------------------------- the table

_CALL_KEYS = (_MODULE, Key("rounds"), _CONVERSATION, _ADAPTER)

STEP_ROWS: Final[tuple[StepRow, ...]] = (
    StepRow(type=StartRun, keys=(_CONVERSATION, _RUN_ADAPTER), bare="conversation", prose=_run_prose,
            script=Script("run", "start a run", (Arg("conversation", "CONV", optional=True),))),
    StepRow(type=Activate, keys=_CALL_KEYS, prose=_call_prose("activate_plugin"),
            script=Script("activate", "the model calls activate_plugin", _CALL_ARGS)),
    StepRow(type=Extend, keys=_CALL_KEYS, prose=_call_prose("extend_plugin_activation"),
            script=Script("extend", "the model calls extend_plugin_activation", _CALL_ARGS)),
    StepRow(type=SetStrategy, keys=(_MODULE, Key("strategy")), prose=_strategy_prose,
            script=Script("strategy", "an admin sets a plugin's strategy",
                          (_MODULE_ARG, Arg("strategy", "auto|allow_sleep|forbid_sleep")))),
    StepRow(type=Enable, keys=(_MODULE,), bare="module_name", prose=_says("admin: enable {plugin}", plugin="module_name"),
            script=Script("enable", "an admin enables a plugin", (_MODULE_ARG,))),
    StepRow(type=Disable, keys=(_MODULE,), bare="module_name", prose=_says("admin: disable {plugin}", plugin="module_name"),
            script=Script("disable", "an admin disables a plugin", (_MODULE_ARG,))),
    StepRow(type=SetScheduler, keys=(Key("enabled"),), bare="enabled", prose=_scheduler_prose,
            script=Script("scheduler", "switch the plugin_activation scheduler",
                          (Arg("enabled", "on|off", ArgKind.CHOICE, choices=(("on", True), ("off", False))),))),
    StepRow(type=Restart, prose=_says("host restart"),
            script=Script("restart", "restart the host (stored counters survive)")),
    StepRow(type=Load, prose=_says("host: load"), keys=(
        Key("plugins", _from_load("plugins"), fixed=True), Key("host", _from_load("host"), fixed=True),
        Key("environment", _from_load("environment"), read=dict),
        Key("overrides", _from_load("overrides"), read=tuple),
        Key("behaviour", _from_load("behaviour"), read=Behaviour.from_json, write=Behaviour.to_json))),
    StepRow(type=Start, prose=_says("host: start")),
    StepRow(type=Dispatch, keys=(Key("hook"), Key("conversation"), Key("payload")), bare="hook", prose=_dispatch_prose),
    StepRow(type=OpenConversation, keys=(Key("conversation"),), bare="conversation",
            prose=_says("host: open conversation {conversation}", conversation="conversation")),
    StepRow(type=Reload, keys=(_MODULE,), bare="module_name", prose=_says("host: reload {plugin}", plugin="module_name")),
    StepRow(type=ReadConfig, keys=(_MODULE,), bare="module_name",
            prose=_says("host: read the config of {plugin}", plugin="module_name")),
    StepRow(type=Stop, prose=_says("host: stop")),
    # the disclosure profile (every scenario sends disclosure-start with its catalogue first)
    StepRow(type=Request, name="request", keys=(_THREAD,), bare="thread", prose=_request_prose,
            script=Script("request", "a user turn on a thread (one still open there ends first)", (_THREAD_ARG,))),
    StepRow(type=ModelStep, name="model_step", keys=(_THREAD, Key("calls", read=_read_calls, write=_calls_json)),
            bare="calls", prose=_model_step_prose),
    StepRow(type=EndRequest, name="end_request", keys=(_THREAD,), bare="thread",
            prose=_thread_prose("the model answers: end of the request"),
            script=Script("end", "the model answers with text: the request ends", (_THREAD_ARG,))),
    StepRow(type=Rebuild, name="rebuild", keys=(Key("store", read=Store, write=lambda store: store.value),),
            bare="store", prose=_rebuild_prose,
            script=Script("rebuild", "a new host object, its store kept or reset",
                          (Arg("store", "kept|reset", ArgKind.CHOICE, choices=(("kept", "kept"), ("reset", "reset"))),))),
    StepRow(type=Trim, name="trim_history", keys=(_THREAD, Key("keep")), bare="keep", prose=_trim_prose,
            script=Script("trim", "keep only a thread's last KEEP messages", (Arg("keep", "KEEP", ArgKind.JSON), _IN_THREAD))),
    StepRow(type=Idle, name="idle", keys=(Key("seconds", read=_seconds),), bare="seconds", prose=_idle_prose,
            script=Script("idle", "time passes with no activity", (Arg("seconds", "SECONDS", ArgKind.JSON),))),
    StepRow(type=Clear, name="clear_state", keys=(_THREAD,), bare="thread",
            prose=_thread_prose("the host clears the loaded tools"),
            script=Script("clear", "the host's own API clears a thread's loaded tools", (_THREAD_ARG,))),
)

#: Rows by scenario key (``run``, ``set_strategy``, ``host_load`` ...), in table order.
ROWS: Final[Mapping[str, StepRow]] = {row.key: row for row in STEP_ROWS}
_BY_TYPE: Final[Mapping[type, StepRow]] = {row.type: row for row in STEP_ROWS}
#: The scenario keys of host commands (host profile).
HOST_KEYS: Final = tuple(row.key for row in STEP_ROWS if row.host)
#: The scenario keys of disclosure events (disclosure profile).
DISCLOSURE_KEYS: Final = tuple(row.key for row in STEP_ROWS if row.disclosure)
#: Rows by ``pas simulate`` command word.
SCRIPT_ROWS: Final[Mapping[str, StepRow]] = {row.script.word: row for row in STEP_ROWS if row.script is not None}


def row_of(event: Event | HostCommand | DisclosureEvent) -> StepRow:
    """The row of an event or host command; raises KeyError for anything else."""
    return _BY_TYPE[type(event)]


def key_of(event: Event | HostCommand | DisclosureEvent) -> str:
    """The scenario key of an event or host command (``run``, ``activate``, ``host_dispatch`` ...)."""
    return row_of(event).key


def write_steps(events: tuple[Event | HostCommand | DisclosureEvent, ...],
                context: StepContext) -> tuple[tuple[str, Any], ...]:
    """Each event as ``(scenario key, step value)``, written in order through ``context``.

    Raises Unwritable when a scenario file cannot say one of them (see :meth:`StepRow.write`).
    """
    return tuple((row_of(event).key, row_of(event).write(event, context)) for event in events)
