"""Renderers for ``pas simulate``: a table per run, JSON for machines, an SVG timeline, reference text on request.

Every function returns a string; the command module decides where it goes and whether
colour is wanted (only on a terminal, never with NO_COLOR).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence

from conformance.tools.simulate.simulation import Simulation, SimulationStep
from reference_impl.disclosure_answers import (
    Answer,
    DisclosureObservation,
    Done,
    InvokeAnswer,
    ListAnswer,
    LoadAnswer,
    SearchAnswer,
    StepObservation,
    ToolsObservation,
)
from reference_impl.events import AdminObservation, CallObservation, PluginView, RunObservation, StartRun
from reference_impl.model import AdminOutcome, OutcomeKind, PluginState
from reference_impl.problems import Problem

COLUMNS = ("plugin", "state", "rounds_left", "hint", "shown")
INDENT = "    "

_STYLES = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "cyan": "36"}
_STATE_STYLE = {PluginState.ALWAYS_AWAKE: "cyan", PluginState.ACTIVE: "green", PluginState.SLEEPING: "dim"}
_OUTCOME_STYLE = {
    OutcomeKind.ACTIVATED: "green",
    OutcomeKind.EXTENDED: "green",
    OutcomeKind.ALREADY_ACTIVE: "yellow",
    OutcomeKind.ALWAYS_AWAKE: "yellow",
    OutcomeKind.NOT_FOUND: "red",
    OutcomeKind.INVALID_ARGUMENT: "red",
}


def _paint(text: str, style: str, color: bool) -> str:
    return f"\x1b[{_STYLES[style]}m{text}\x1b[0m" if color and text else text


def shown_flags(view: PluginView) -> str:
    """What of the plugin the model gets, as compact flags: ``methods``, ``brief``, ``inject``."""
    flags = [name for name, on in (("methods", view.methods_shown), ("brief", view.brief_shown),
                                   ("inject", view.injection_called)) if on]
    return " ".join(flags) or "-"


def _row(view: PluginView) -> tuple[str, ...]:
    rounds = "-" if view.rounds_left is None else str(view.rounds_left)
    return (view.module_name, view.state.value, rounds, "hint" if view.hint else "-", shown_flags(view))


def render_table(views: Sequence[PluginView], *, color: bool = False) -> str:
    """The plugins of one run as an aligned table with a header row."""
    if not views:
        return "(no plugins shown)"
    rows = [COLUMNS, *(_row(v) for v in views)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = [_paint("  ".join(c.ljust(w) for c, w in zip(COLUMNS, widths)).rstrip(), "bold", color)]
    for view, row in zip(views, rows[1:]):
        styles = [None, _STATE_STYLE[view.state], None, "yellow" if view.hint else None, None]
        cells = [(_paint(cell, style, color) if style else cell) + " " * (width - len(cell))
                 for cell, width, style in zip(row, widths, styles)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def outcome_line(step: SimulationStep, *, color: bool = False) -> str:
    """One line for a call or admin step: the outcome kind, the rounds, whether the step ends."""
    observation = step.observation
    if isinstance(observation, CallObservation):
        kind = _paint(observation.outcome.value, _OUTCOME_STYLE[observation.outcome], color)
        rounds = "-" if observation.rounds is None else observation.rounds
        ends = "ends step" if observation.ends_step else "step continues"
        return f"-> {kind}  rounds={rounds}  {ends}"
    if isinstance(observation, AdminObservation):
        applied = observation.outcome is AdminOutcome.APPLIED
        kind = _paint(observation.outcome.value, "green" if applied else "red", color)
        return f"-> {kind}" + (f": {observation.reason}" if observation.reason else "")
    raise TypeError(f"not a call or admin observation: {observation!r}")


def _heading(step: SimulationStep, run_number: int | None, *, color: bool) -> str:
    command = step.command
    where = _paint(f"[{command.line}:{command.column}]", "dim", color)
    event = command.event
    conversation = getattr(event, "conversation", None)
    context = []
    if conversation is not None:
        context.append(f"conversation {conversation}")
    thread = getattr(event, "thread", None)
    if thread is not None:
        context.append(f"thread {thread}")
    if run_number is not None:
        context.append(f"run {run_number}")
    adapter = getattr(event, "adapter", None)
    if adapter is not None:
        context.append(f"adapter {adapter}")
    suffix = _paint(f"  ({', '.join(context)})", "dim", color) if context else ""
    return f"{where} {_paint(command.text, 'bold', color)}{suffix}"


def _indent(block: str) -> str:
    return "\n".join(INDENT + line if line else line for line in block.splitlines())


def tools_line(tools: tuple[str, ...], label: str = "tools") -> str:
    """A model call's tool list on one line: loader tokens, then the catalogue tools in order."""
    return f"{label}: {' '.join(tools) or '(none)'}"


def answer_line(answer: Answer) -> str:
    """One answer of a model step in words: ``load weather: loaded``, ``search: found weather, loaded -``."""
    if isinstance(answer, LoadAnswer):
        return f"{answer.call}: " + ", ".join(f"{name} {outcome.value}" for name, outcome in answer.results)
    if isinstance(answer, SearchAnswer):
        return f"search: found {', '.join(answer.found) or '-'}; loaded {', '.join(answer.loaded) or '-'}"
    if isinstance(answer, ListAnswer):
        return "list: " + ", ".join(f"{name}{' (loaded)' if loaded else ''}" for name, loaded in answer.listed)
    if isinstance(answer, InvokeAnswer):
        return f"invoke {answer.name}: {answer.outcome.value}"
    return f"{answer.call}: unsupported"


def _disclosure_body(observation: DisclosureObservation) -> str:
    if isinstance(observation, ToolsObservation):
        return tools_line(observation.tools)
    if isinstance(observation, StepObservation):
        return "\n".join([*(f"-> {answer_line(a)}" for a in observation.answers), tools_line(observation.tools, "next")])
    return "-> done"


def _body(step: SimulationStep, *, text: bool, color: bool) -> str:
    observation = step.observation
    if isinstance(observation, (ToolsObservation, StepObservation, Done)):
        return _disclosure_body(observation)
    if isinstance(observation, RunObservation):
        if text:
            return observation.text or "(no plugin text)"
        return render_table(observation.plugins, color=color)
    line = outcome_line(step, color=color)
    if text and isinstance(observation, CallObservation) and observation.text:
        return f"{line}\n{observation.text}"
    return line


def render_steps(simulation: Simulation, *, text: bool = False, color: bool = False) -> str:
    """The human report: a heading per command, then the run's table (or text) or the outcome.

    ``text`` replaces each run's table with the reference prompt text and adds each call's
    reference reply under its outcome line.
    """
    runs: Counter[str] = Counter()
    catalogue = (f"; {len(simulation.tools)} tools from {simulation.tools_source}, disclosure "
                 f"{simulation.declared.to_text() or 'defaults'}") if simulation.tools_source else ""
    header = _paint(f"pas simulate: {len(simulation.manifests)} plugins from {simulation.plugins_source}; "
                    f"host config {simulation.host_source}{catalogue}", "dim", color)
    parts = [header]
    for step in simulation.steps:
        run_number = None
        if isinstance(step.command.event, StartRun):
            runs[step.command.event.conversation] += 1
            run_number = runs[step.command.event.conversation]
        parts.append(f"{_heading(step, run_number, color=color)}\n{_indent(_body(step, text=text, color=color))}")
    return "\n\n".join(parts) + "\n"


def steps_json(simulation: Simulation) -> list[dict]:
    """Each step as ``{line, column, command, event, observation}`` (the wire JSON forms)."""
    return [
        {
            "line": step.command.line,
            "column": step.command.column,
            "command": step.command.text,
            "event": step.command.event.to_json(),
            "observation": step.observation.to_json(),
        }
        for step in simulation.steps
    ]


def render_json(simulation: Simulation) -> str:
    """The steps as a JSON array, one object per command."""
    return json.dumps(steps_json(simulation), indent=2, ensure_ascii=False) + "\n"


def render_svg(simulation: Simulation, *, title: str = "") -> str:
    """The runs as a run x plugin picture (:mod:`conformance.tools.simulate.timeline`): a row per plugin,
    a column per run, each cell its state; the calls made are noted under the grid."""
    from dataclasses import replace

    from conformance.tools.simulate.timeline import EN, plugin_rows, timeline_runs, timeline_svg
    from reference_impl.events import EVENT_TYPES

    activation = tuple(EVENT_TYPES.values())  # the picture is of runs: disclosure steps have no place in it
    runs = timeline_runs((step.command.event, step.observation) for step in simulation.steps
                         if isinstance(step.command.event, activation))
    heading = title or f"pas simulate: {len(simulation.manifests)} plugins from {simulation.plugins_source}"
    return timeline_svg(runs, plugin_rows(runs), replace(EN, title=heading))


def render_problems(problems: Iterable[Problem], script_problems: Iterable[Problem] = (), *, color: bool = False) -> str:
    """File problems as ``path:line:col: severity code message [pointer]``, then script ones
    as ``script:line:col: error code message``."""
    lines = [_paint_problem(str(p), p, color) for p in problems]
    lines += [_paint_problem(f"{p.source}: {p.severity.value} {p.code} {p.message}", p, color) for p in script_problems]
    return "\n".join(lines) + ("\n" if lines else "")


def _paint_problem(line: str, problem: Problem, color: bool) -> str:
    if not color:
        return line
    word = problem.severity.value
    return line.replace(f" {word} ", f" {_paint(word, 'red' if word == 'error' else 'yellow', True)} ", 1)
