"""Markdown: a summary table, requirement verdicts by level, then every failure in full.

Fit for a CI job summary (e.g. ``>> $GITHUB_STEP_SUMMARY``) or a pull-request comment.
"""

from __future__ import annotations

from conformance.report.text import failure_text, headline, summary_line
from conformance.suite.results import Outcome, RequirementStatus, RunResult


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _fence(text: str) -> str:
    ticks = "```"
    while ticks in text:
        ticks += "`"
    return f"{ticks}text\n{text}\n{ticks}"


def _tables(run: RunResult) -> list[str]:
    lines = ["| outcome | scenarios |", "| --- | ---: |"]
    lines += [f"| {outcome} | {n} |" for outcome, n in run.summary.counts.items() if n]
    statuses = [s.value for s in RequirementStatus]
    lines += ["", "| level | " + " | ".join(statuses) + " |", "| --- |" + " ---: |" * len(statuses)]
    lines += [f"| {level} | " + " | ".join(str(counts.get(s, 0)) for s in statuses) + " |"
              for level, counts in run.summary.levels.items()]
    bad = [t for t in run.summary.requirements if t.status in (RequirementStatus.FAILED, RequirementStatus.ERRORED)]
    if bad:
        lines += ["", "| requirement | level | status | title |", "| --- | --- | --- | --- |"]
        lines += [f"| {t.requirement.id} | {t.requirement.level} | {t.status.value} | {_cell(t.requirement.title)} |"
                  for t in bad]
    declined = [t for t in run.summary.requirements if t.status is RequirementStatus.DECLINED]
    if declined:
        lines += ["", "Declined by declaration (hazards the implementation's users will hit):", "",
                  "| requirement | level | hazard | declared |", "| --- | --- | --- | --- |"]
        lines += [f"| {t.requirement.id} | {t.requirement.level} | {_cell(t.requirement.title)} | {_cell(t.declined)} |"
                  for t in declined]
    return lines


def render(run: RunResult, *, color: bool = False) -> str:
    """The markdown report; ``color`` is ignored."""
    info = run.info
    who = f"{info.name} {info.version} ({info.language})" if info else "the implementation (hello failed)"
    spec = f"Spec {run.spec_version}. " if run.spec_version else ""
    lines = [f"# PAS conformance: {_cell(who)}", "", f"{spec}Profiles: {', '.join(run.profiles)}. {summary_line(run)}", ""]
    lines += _tables(run)
    problems = [r for r in run.results if r.outcome in (Outcome.FAILED, Outcome.ERRORED, Outcome.STALE)]
    if problems:
        lines += ["", "## Failures"]
    for result in problems:
        lines += ["", f"### {result.outcome.value} `{result.id}`: {_cell(result.title)}", ""]
        lines.append(_fence(failure_text(result)) if result.outcome is not Outcome.STALE else headline(result))
    xfailed = [r for r in run.results if r.outcome is Outcome.XFAILED]
    if xfailed:
        lines += ["", "## Expected failures", ""]
        lines += [f"- `{r.id}`: {_cell(r.reason)}" for r in xfailed]
    return "\n".join(lines) + "\n"
