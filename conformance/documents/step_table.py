"""The one table of scenario steps: each event and host command, as a scenario file writes it.

One :class:`~conformance.documents.step_form.StepRow` per event class (``reference_impl.events``)
and host command (``reference_impl.host_commands``): the keys of its step value with their
defaults, the key a bare value stands for, its words on the scenario pages and its ``pas simulate``
command. Its scenario key is its wire ``cmd`` with ``_`` for ``-``. Everything that reads or
writes steps reads this table: the scenario loader (conformance.suite.scenario), the fuzz emitter
and labels (conformance.fuzz), ``pas simulate`` (conformance.tools.simulate.script and its
``--help``) and the scenario pages (conformance.docs_gen.scenario_pages). Adding an event is its
class, its protocol schemas and one row here; the scenario schema gets its key.
"""

from __future__ import annotations

from collections.abc import Mapping
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


# --------------------------------------------------------------------------- pas simulate arguments

_MODULE_ARG = Arg("module_name", "MODULE")
_CALL_ARGS = (_MODULE_ARG, Arg("rounds", "ROUNDS", ArgKind.JSON, optional=True),
              Arg("conversation", "CONV", optional=True, keyword="in"))

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
)

#: Rows by scenario key (``run``, ``set_strategy``, ``host_load`` ...), in table order.
ROWS: Final[Mapping[str, StepRow]] = {row.key: row for row in STEP_ROWS}
_BY_TYPE: Final[Mapping[type, StepRow]] = {row.type: row for row in STEP_ROWS}
#: The scenario keys of host commands (host profile).
HOST_KEYS: Final = tuple(row.key for row in STEP_ROWS if row.host)
#: Rows by ``pas simulate`` command word.
SCRIPT_ROWS: Final[Mapping[str, StepRow]] = {row.script.word: row for row in STEP_ROWS if row.script is not None}


def row_of(event: Event | HostCommand) -> StepRow:
    """The row of an event or host command; raises KeyError for anything else."""
    return _BY_TYPE[type(event)]


def key_of(event: Event | HostCommand) -> str:
    """The scenario key of an event or host command (``run``, ``activate``, ``host_dispatch`` ...)."""
    return row_of(event).key


def write_steps(events: tuple[Event | HostCommand, ...], context: StepContext) -> tuple[tuple[str, Any], ...]:
    """Each event as ``(scenario key, step value)``, written in order through ``context``.

    Raises Unwritable when a scenario file cannot say one of them (see :meth:`StepRow.write`).
    """
    return tuple((row_of(event).key, row_of(event).write(event, context)) for event in events)
