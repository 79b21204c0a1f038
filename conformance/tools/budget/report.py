"""Text and JSON renderings of a :class:`~conformance.tools.budget.measure.Budget`.

Both say when the counts are an estimate (and how to get real ones), and why a run whose saving
is negative costs more with scheduling than with every plugin awake.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from conformance.tools.budget.measure import Budget, RunBudget
from conformance.tools.budget.tokenizer import INSTALL_HINT

#: Why a run can cost more with scheduling, by cause (see :func:`negative_runs`).
WHY_NEGATIVE = {
    "replies": "an activation or extension reply carries the plugin's full block, so the run that wakes a plugin "
               "pays for it twice: its sleeping block in the prompt and its full block in the reply",
    "active": "an active plugin's block also says how many runs it has left (and, at the last one, hints at "
              "extend_plugin_activation): a little more text than the same block with every plugin awake",
    "sleeping": "the sleeping blocks (the brief and how to activate the plugin) are not shorter than these plugins' "
                "full blocks, so sleeping saves nothing here",
}
ESTIMATE_ADVICE = f"the counts are an estimate; for real cl100k_base counts: {INSTALL_HINT}"


@dataclass(frozen=True, slots=True, kw_only=True)
class NegativeRun:
    """A run whose saving is negative, and the cause (a key of :data:`WHY_NEGATIVE`)."""

    index: int
    cause: str
    extra: int  # tokens more than with every plugin awake


def _cause(run: RunBudget) -> str:
    prompt = run.scheduled.tokens - run.replies.tokens
    if run.replies.tokens and prompt <= run.all_awake.tokens:
        return "replies"  # without the replies the run would save something
    return "active" if run.states.get("active") else "sleeping"


def negative_runs(budget: Budget) -> list[NegativeRun]:
    """Every run that costs more scheduled than all awake, with why."""
    return [NegativeRun(index=run.index, cause=_cause(run), extra=run.scheduled.tokens - run.all_awake.tokens)
            for run in budget.runs if run.scheduled.tokens > run.all_awake.tokens]


def _why_lines(budget: Budget, unit: str) -> list[str]:
    negative = negative_runs(budget)
    if not negative:
        return []
    lines = ["", f"runs with a negative saving (+N: {unit} more with scheduling than with every plugin awake):"]
    for cause, reason in WHY_NEGATIVE.items():
        runs = [n for n in negative if n.cause == cause]
        if runs:
            listed = ", ".join(f"{n.index} (+{n.extra})" for n in runs)
            lines.append(f"  run{'s' if len(runs) > 1 else ''} {listed}: {reason}")
    return lines

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
    text = {"reference": "reference prompt text", "reference+parameters": "reference prompt text + method parameters",
            "reference+declarations": "reference prompt text, shown methods as tool declarations (JSON)"}[budget.text_name]
    lines = [
        f"plugins: {budget.plugins_source}",
        f"host:    {budget.host_source}",
        f"script:  {budget.script_source} ({len(budget.runs)} runs)",
        f"tokens:  {tokenizer.label}",
        *([f"         {ESTIMATE_ADVICE}"] if tokenizer.estimate else []),
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
        *_why_lines(budget, unit),
    ]
    if budget.saving < 0:
        lines.append("scheduling costs more than it saves on this set: its sleeping blocks are not much shorter "
                     "than its full blocks, and each activation reply repeats a full block")
    lines += render_cache(budget)
    return "\n".join(lines) + "\n"


def render_json(budget: Budget) -> str:
    """The JSON report (see ``Budget.to_json``), indented, with a final newline.

    Beside ``Budget.to_json``: ``tokenizer.advice`` (how to get real counts) when estimated, and
    ``negative_runs``: ``[{run, cause, extra_tokens, why}]`` for every run with a negative saving.
    """
    report = budget.to_json()
    if budget.tokenizer.estimate:
        report["tokenizer"]["advice"] = ESTIMATE_ADVICE
    report["negative_runs"] = [{"run": n.index, "cause": n.cause, "extra_tokens": n.extra, "why": WHY_NEGATIVE[n.cause]}
                               for n in negative_runs(budget)]
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"


def _cache_rows(budget: Budget) -> list[tuple[str, ...]]:
    from conformance.tools.budget.cache import SIDES

    view = budget.cache
    assert view is not None  # only called with a cache view
    header = ("run", "conversation", "all awake", "cached", "ACT-ORDER-1", "cached", "changing last", "cached",
              "appended", "cached")
    rows: list[tuple[str, ...]] = [header]
    for index, run in enumerate(budget.runs):
        cells = [str(run.index), run.conversation]
        for side in SIDES:
            cached = view.sides[side][index]
            cells += [str(cached.prompt), str(cached.cached)]
        rows.append(tuple(cells))
    rows.append(("total", "", *(str(view.total(side, field)) for side in SIDES for field in ("prompt", "cached"))))
    return rows


def render_cache(budget: Budget) -> list[str]:
    """The prompt-cache view: cached tokens per run and side, then each side's cost with and without the cache."""
    from conformance.tools.budget.cache import ALL_AWAKE, SIDE_NAMES, SIDES

    view = budget.cache
    if view is None:
        return []
    prices = view.prices
    lines = ["", "prompt cache: plugin text tokens per run, and the part an earlier run already sent (cached);",
             f"prices in USD per million tokens: input {prices.input:.2f}, cache write {prices.cache_write:.2f}, "
             f"cache read {prices.cache_read:.2f}; activation replies at the input price",
             *_table(_cache_rows(budget)), ""]
    width = max(len(name) for name in SIDE_NAMES.values())
    lines.append(f"{'':{width}}  cached  cost with cache  cost without")
    for side in SIDES:
        lines.append(f"{SIDE_NAMES[side]:{width}}  {view.cached_share(side):6.1%}  {'$' + format(view.cost(side), '.4f'):>15}"
                     f"  {'$' + format(view.cost_uncached(side), '.4f'):>12}")
    best, awake = view.best_scheduled(), view.cost(ALL_AWAKE)
    saved = 1 - view.cost(best) / awake if awake else 0.0
    plain = 1 - view.cost_uncached(best) / view.cost_uncached(ALL_AWAKE) if view.cost_uncached(ALL_AWAKE) else 0.0
    name = SIDE_NAMES[best].removeprefix("scheduled, ")
    if saved > 0:
        lines.append(f"with the cache, scheduling ({name}) saves {saved:.1%} of the cost of every plugin awake "
                     f"(without a cache: {plain:.1%})")
    else:
        lines.append(f"with the cache, scheduling ({name}) costs {-saved:.1%} more than every plugin awake "
                     f"(without a cache it would save {plain:.1%})")
    return lines
