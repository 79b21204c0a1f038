"""Text and JSON renderings of a :class:`~conformance.tools.budget.measure.Budget`."""

from __future__ import annotations

import json

from conformance.tools.budget.measure import Budget, RunBudget

HEADER = ("run", "conversation", "awake/active/sleeping", "scheduled", "of which replies", "all awake", "saving")


def _row(run: RunBudget) -> tuple[str, ...]:
    states = "/".join(str(run.states.get(s, 0)) for s in ("always_awake", "active", "sleeping"))
    return (str(run.index), run.conversation, states, str(run.scheduled.tokens), str(run.replies.tokens),
            str(run.all_awake.tokens), f"{run.saving:.1%}")


def _table(rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.rjust(w) if i not in (1, 2) else cell.ljust(w)
                      for i, (cell, w) in enumerate(zip(row, widths))).rstrip() for row in rows]


def render_text(budget: Budget) -> str:
    """A per-run table of token counts, totals, characters and the saving."""
    tokenizer = budget.tokenizer
    unit = "tokens (ESTIMATE)" if tokenizer.estimate else "tokens"
    scheduled, awake = budget.total("scheduled"), budget.total("all_awake")
    text = "reference prompt text + method parameters" if budget.include_parameters else "reference prompt text"
    lines = [
        f"plugins: {budget.plugins_source}",
        f"host:    {budget.host_source}",
        f"script:  {budget.script_source} ({len(budget.runs)} runs)",
        f"tokens:  {tokenizer.label}",
        f"text:    {text}; scheduled = prompt + activate/extend replies",
        "",
        f"{unit} per run:",
        *_table([HEADER, *(_row(run) for run in budget.runs),
                 ("total", "", "", str(scheduled.tokens), str(budget.total("replies").tokens), str(awake.tokens),
                  f"{budget.saving:.1%}")]),
        "",
        f"characters: scheduled {scheduled.chars}, all awake {awake.chars}",
        f"all awake: {awake.tokens} {unit} (every plugin's full block in every run)",
        f"scheduled: {scheduled.tokens} {unit} with this script (saving {budget.saving:.1%})",
        f"ceiling:   {budget.total('ceiling').tokens} {unit} with every sleepable plugin asleep throughout "
        f"(saving {budget.saving_ceiling:.1%})",
        f"saving: {budget.saving:.1%} of {unit} (ceiling, had nothing been activated: {budget.saving_ceiling:.1%})",
    ]
    if budget.saving < 0:
        lines.append("scheduling costs more than it saves on this set: its sleeping blocks are not much shorter "
                     "than its full blocks, and each activation reply repeats a full block")
    return "\n".join(lines) + "\n"


def render_json(budget: Budget) -> str:
    """The JSON report (see ``Budget.to_json``), indented, with a final newline."""
    return json.dumps(budget.to_json(), indent=2, ensure_ascii=False) + "\n"
