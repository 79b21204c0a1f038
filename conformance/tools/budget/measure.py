"""What scheduling saves: the prompt of every run with scheduling against every plugin awake.

For each ``run`` of a script the reference scheduler is driven twice from the same start:

* **scheduled**: the host config as given. The run's size is its reference prompt text
  (``reference_impl.render.render_run``: the plugin blocks, as NekroAgent's system prompt
  holds them; the ``<plugin_runtime_context>`` blocks are left out, because their text is
  whatever a plugin injects at run time, which a manifest does not say) plus the replies of the ``activate_plugin`` and
  ``extend_plugin_activation`` calls made in that run while the scheduler is on (an
  activation reply carries the plugin's full block: that is part of what scheduling costs).
  Calls made while the scheduler is off are not counted: with every plugin shown, a model
  has no reason to make them.
* **all awake**: the same host with the scheduler switched off (every plugin always awake),
  the same runs and admin actions, no calls (``scheduler on|off`` commands are ignored here).

A third pass, with no calls at all, gives the **ceiling**: the saving if the model never
activated anything. A call belongs to the latest run of its conversation; calls before a
conversation's first run are counted in that first run. Conversation history (earlier
replies replayed in later runs) is not modelled: each run is its plugin prompt alone.

With ``include_parameters`` every shown method also costs its parameter schema as compact
JSON, as for a host that sends tool definitions beside the prompt text. The reference text
itself lists methods without parameters.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from conformance.tools.budget.cache import ALL_AWAKE, SCHEDULED, CacheView, Prices, cached_runs
from conformance.tools.budget.layout import ORDERS, Layout, Prompt, parameters_text  # noqa: F401 - re-exported (bench/budget.py)
from conformance.tools.budget.tokenizer import Tokenizer, load_tokenizer
from reference_impl.disclosure_commands import DISCLOSURE_TYPES
from reference_impl.events import (
    Activate,
    Call,
    CallObservation,
    Event,
    Extend,
    PluginView,
    RunObservation,
    SetScheduler,
    StartRun,
)
from reference_impl.model import HostConfig, Manifest, PluginState
from reference_impl.problems import Problem, Severity, SourceLocation

TYPICAL_MIX = Path(__file__).resolve().parent / "typical.pas"
DEFAULT_MIX_NAME = "the default mix for this plugin set (each sleepable plugin activated once)"


@dataclass(frozen=True, slots=True, kw_only=True)
class Size:
    """The size of some prompt text: characters and tokens."""

    chars: int = 0
    tokens: int = 0

    def __add__(self, other: Size) -> Size:
        return Size(chars=self.chars + other.chars, tokens=self.tokens + other.tokens)

    def to_json(self) -> dict[str, int]:
        """``{"chars": .., "tokens": ..}``."""
        return {"chars": self.chars, "tokens": self.tokens}


def saving(scheduled: Size, all_awake: Size) -> float:
    """The fraction of tokens scheduling saves (negative when it costs more; 0 for an empty baseline)."""
    return 0.0 if all_awake.tokens == 0 else 1 - scheduled.tokens / all_awake.tokens


@dataclass(frozen=True, slots=True, kw_only=True)
class RunBudget:
    """One run: its place in the script and its size both ways."""

    index: int  # 1-based, in script order
    conversation: str
    line: int  # the script line of the ``run`` command
    scheduled: Size  # prompt plus call replies
    replies: Size  # the call-reply part of ``scheduled``
    all_awake: Size
    ceiling: Size  # scheduled with no activation ever made
    states: Mapping[str, int] = field(default_factory=dict)  # plugins per state, scheduled side
    views: tuple[PluginView, ...] = ()  # what the model saw of each plugin, scheduled side (the chart's timeline)
    calls: tuple[str, ...] = ()  # the activate/extend calls counted in this run, as the timeline notes them

    @property
    def saving(self) -> float:
        """This run's saving fraction."""
        return saving(self.scheduled, self.all_awake)

    def to_json(self) -> dict[str, Any]:
        """One row of the JSON report."""
        return {
            "run": self.index, "conversation": self.conversation, "line": self.line,
            "scheduled": self.scheduled.to_json(), "replies": self.replies.to_json(),
            "all_awake": self.all_awake.to_json(), "saving": round(self.saving, 4),
            "states": dict(self.states),
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Budget:
    """The result of :func:`measure_budget`; rows are empty unless :attr:`ok`."""

    plugins_source: str
    host_source: str
    script_source: str
    tokenizer: Tokenizer
    include_parameters: bool = False
    declarations: bool = False  # shown methods measured as tool declarations (layout.py)
    runs: tuple[RunBudget, ...] = ()
    cache: CacheView | None = None  # the prompt-cache view, when prices were given
    problems: tuple[Problem, ...] = ()  # the plugin and host files' (the one loader's), and warnings
    script_problems: tuple[Problem, ...] = ()  # the script's, and a script without a run

    @property
    def ok(self) -> bool:
        """True when no error stopped the measurement."""
        return not self.script_problems and all(p.severity is not Severity.ERROR for p in self.problems)

    def total(self, side: str) -> Size:
        """Sum over the runs of ``scheduled``, ``replies``, ``all_awake`` or ``ceiling``."""
        return sum((getattr(run, side) for run in self.runs), Size())

    @property
    def saving(self) -> float:
        """The overall saving fraction (tokens)."""
        return saving(self.total("scheduled"), self.total("all_awake"))

    @property
    def saving_ceiling(self) -> float:
        """The saving had the model never activated a plugin."""
        return saving(self.total("ceiling"), self.total("all_awake"))

    def to_json(self) -> dict[str, Any]:
        """The JSON report: sources, tokenizer, totals, ``saving`` and one row per run."""
        scheduled, awake = self.total("scheduled"), self.total("all_awake")
        return {
            "plugins": self.plugins_source, "host": self.host_source, "script": self.script_source,
            "tokenizer": {"name": self.tokenizer.name, "estimate": self.tokenizer.estimate,
                          "label": self.tokenizer.label, "source": self.tokenizer.source},
            "text": self.text_name,
            "totals": {"scheduled": scheduled.to_json(), "replies": self.total("replies").to_json(),
                       "all_awake": awake.to_json(), "ceiling": self.total("ceiling").to_json()},
            "saving": round(self.saving, 4),
            "saving_chars": round(1 - scheduled.chars / awake.chars, 4) if awake.chars else 0.0,
            "saving_ceiling": round(self.saving_ceiling, 4),
            "runs": [run.to_json() for run in self.runs],
            "problems": [p.to_json() for p in (*self.problems, *self.script_problems)],
            **({"cache": self.cache.to_json()} if self.cache is not None else {}),
        }

    @property
    def text_name(self) -> str:
        """Which text was measured: ``reference``, ``reference+parameters`` or ``reference+declarations``."""
        return "reference+declarations" if self.declarations else "reference+parameters" if self.include_parameters \
            else "reference"


class _Meter:
    """Turns observations into sizes and prompts with one tokenizer and one layout."""

    def __init__(self, tokenizer: Tokenizer, layout: Layout) -> None:
        self.tokenizer, self.layout = tokenizer, layout

    def size(self, text: str) -> Size:
        """Characters and tokens of ``text``."""
        return Size(chars=len(text), tokens=self.tokenizer.count(text))

    def prompts(self, observation: RunObservation) -> dict[str, Prompt]:
        """The run's text in every block order (the reference order first)."""
        return {order: self.layout.run(observation, order) for order in ORDERS}

    def reply(self, call: Call, observation: CallObservation) -> Size:
        """The size of an activate/extend reply as this layout measures it."""
        return self.size(self.layout.reply(call, observation))


def _engine(manifests: Sequence[Manifest], host: HostConfig):
    from reference_impl.engine import Engine

    engine = Engine(text=True)
    engine.start(manifests, host)
    return engine


def _is_call(event: Event) -> bool:
    return isinstance(event, (Activate, Extend))


def _runs(events: Iterable[Event], engine, meter: _Meter) -> list[Prompt]:
    """Apply ``events``; return every run's text in the reference order."""
    prompts = []
    for event in events:
        observation = engine.apply(event)
        if isinstance(observation, RunObservation):
            prompts.append(meter.layout.run(observation))
    return prompts


def _scheduled(commands: Sequence[Any], engine, meter: _Meter) -> list[dict[str, Any]]:
    """The scheduled pass: one mutable row per run, replies added to the latest run of their conversation."""
    from conformance.tools.simulate.timeline import call_text
    from reference_impl.scheduler import scheduler_on
    from reference_impl.semantics import load_semantics

    semantics = load_semantics()
    rows: list[dict[str, Any]] = []
    latest: dict[str, dict[str, Any]] = {}
    pending: dict[str, tuple[Size, tuple[str, ...]]] = {}  # replies and calls before a conversation's first run
    for command in commands:
        event = command.event
        counted = _is_call(event) and scheduler_on(engine.state.host, semantics)
        observation = engine.apply(event)
        if isinstance(observation, RunObservation):
            states: dict[str, int] = {state.value: 0 for state in PluginState}
            for view in observation.plugins:
                states[view.state.value] += 1
            waiting = pending.pop(event.conversation, (Size(), ()))
            row = {"conversation": event.conversation, "line": command.line, "prompts": meter.prompts(observation),
                   "replies": waiting[0], "calls": list(waiting[1]), "states": states, "views": observation.plugins}
            rows.append(row)
            latest[event.conversation] = row
        elif counted and isinstance(observation, CallObservation):
            size, call = meter.reply(event, observation), call_text(event, observation)
            if event.conversation in latest:
                latest[event.conversation]["replies"] += size
                latest[event.conversation]["calls"].append(call)
            else:
                before, calls = pending.get(event.conversation, (Size(), ()))
                pending[event.conversation] = (before + size, (*calls, call))
    return rows


def _cache_view(rows: list[dict[str, Any]], awake: list[Prompt], tokenizer: Tokenizer, prices: Prices) -> CacheView:
    replies = [row["replies"].tokens for row in rows]
    sides = {ALL_AWAKE: cached_runs(awake, [0] * len(awake), tokenizer)}
    sides.update({side: cached_runs([row["prompts"][order] for row in rows], replies, tokenizer)
                  for side, order in SCHEDULED.items()})
    return CacheView(prices=prices, sides=sides)


def _measure(loaded, meter: _Meter, prices: Prices | None) -> tuple[tuple[RunBudget, ...], CacheView | None]:
    """Both passes and the ceiling over the loaded script; the cache view when prices are given."""
    commands = [step.command for step in loaded.steps]
    events = [c.event for c in commands]
    rows = _scheduled(commands, _engine(loaded.manifests, loaded.host), meter)
    awake_host = replace(loaded.host, scheduler_enabled=False)
    awake = _runs((e for e in events if not _is_call(e) and not isinstance(e, SetScheduler)),
                  _engine(loaded.manifests, awake_host), meter)
    ceiling = _runs((e for e in events if not _is_call(e)), _engine(loaded.manifests, loaded.host), meter)
    runs = tuple(
        RunBudget(index=i, conversation=row["conversation"], line=row["line"],
                  scheduled=meter.size(row["prompts"][ORDERS[0]].text) + row["replies"], replies=row["replies"],
                  all_awake=meter.size(awake[i - 1].text), ceiling=meter.size(ceiling[i - 1].text), states=row["states"],
                  views=tuple(row["views"]), calls=tuple(row["calls"]))
        for i, row in enumerate(rows, start=1)
    )
    return runs, _cache_view(rows, awake, meter.tokenizer, prices) if prices is not None else None


def measure_budget(
    script: str | None = None,
    *,
    plugins: Path | str | None = None,
    host: Path | str | None = None,
    script_name: str | None = None,
    tokenizer: Tokenizer | None = None,
    include_parameters: bool = False,
    declarations: bool = False,
    prices: Prices | None = None,
) -> Budget:
    """Measure every run of ``script`` scheduled and all awake; with ``prices``, the prompt-cache view too.

    The default script is the typical mix for the bundled example plugins, and for any other
    plugin set a mix built from the set (:mod:`conformance.tools.budget.mix`). Plugin and host
    defaults are those of ``pas simulate``. ``include_parameters`` adds each shown method's
    parameter schema; ``declarations`` measures shown methods as tool declarations instead
    (:mod:`conformance.tools.budget.layout`). Input problems are returned in the result, never
    raised; a script without a ``run`` is one, a call naming a plugin not in the set a warning.
    """
    from conformance.tools.budget.mix import default_mix, unknown_names
    from conformance.tools.simulate.simulation import load_inputs, run_script

    inputs = load_inputs(plugins, host)  # once: the default mix is built from the set it loads
    if script is None and plugins is None:
        script, script_name = TYPICAL_MIX.read_text(encoding="utf-8"), script_name or str(TYPICAL_MIX)
    elif script is None:
        script_name = script_name or DEFAULT_MIX_NAME
    script_name = script_name or "script"
    tokenizer = tokenizer or load_tokenizer()
    budget = Budget(plugins_source=inputs.plugins_source, host_source=inputs.host_source, script_source=script_name,
                    tokenizer=tokenizer, include_parameters=include_parameters, declarations=declarations,
                    problems=inputs.problems)
    if script is None:  # the mix is built from the set: none when the set has errors (they say why)
        if not inputs.ok or inputs.host is None:
            return budget
        script = default_mix(inputs.plugins.manifests, inputs.host)
    loaded = run_script(script, inputs, script_name=script_name)
    budget = replace(budget, script_problems=loaded.script_problems)
    if not loaded.ok:
        return budget
    assert loaded.host is not None  # an ok simulation has its host config
    budget = replace(budget, problems=(*budget.problems, *unknown_names(
        (step.command for step in loaded.steps), loaded.manifests, script_name)))
    commands = [step.command for step in loaded.steps]
    disclosed = [c for c in commands if isinstance(c.event, DISCLOSURE_TYPES)]
    if disclosed:  # a budget measures activation prompts; a disclosure tool list is another thing
        problems = tuple(Problem(code="not-measured", message=f"'{c.text}' is a disclosure command; pas budget measures "
                                 "activation runs (pas simulate shows what a disclosure step shows)",
                                 source=SourceLocation(path=script_name, line=c.line, column=c.column)) for c in disclosed)
        return replace(budget, script_problems=(*budget.script_problems, *problems))
    if not any(isinstance(c.event, StartRun) for c in commands):
        problem = Problem(code="no-run", message="the script starts no run; add at least one 'run'",
                          source=SourceLocation(path=script_name, line=1, column=1))
        return replace(budget, script_problems=(*budget.script_problems, problem))
    layout = Layout({m.module_name: m for m in loaded.manifests},
                    {name: doc.value for name, doc in inputs.plugins.manifest_docs.items()},
                    parameters=include_parameters, declarations=declarations)
    runs, cache = _measure(loaded, _Meter(tokenizer, layout), prices)
    return replace(budget, runs=runs, cache=cache)
