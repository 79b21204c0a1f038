"""Renderers for ``pas validate`` problems: text, json, github; junit, sarif and ctrf live beside.

Every renderer takes the :class:`~conformance.validate.check.Validation` and returns the whole report
as a string; choosing the format, the colours and the stream is the command's job.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from reference_impl.problems import Problem, Severity

if TYPE_CHECKING:
    from conformance.validate.check import Validation

FORMATS = ("text", "json", "github", "junit", "sarif", "ctrf")
_COLORS = {Severity.ERROR: "\x1b[1;31m", Severity.WARNING: "\x1b[33m", Severity.INFO: "\x1b[36m"}
_DIM, _BOLD, _RESET = "\x1b[2m", "\x1b[1m", "\x1b[0m"
_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def default_format(environ: Mapping[str, str]) -> str:
    """``github`` inside GitHub Actions (GITHUB_ACTIONS=true), else ``text``."""
    return "github" if environ.get("GITHUB_ACTIONS") == "true" else "text"


def render(outcome: Validation, fmt: str, *, color: bool = False, strict: bool = False, quiet: bool = False,
           exit_code: int | None = None) -> str:
    """The report in format ``fmt`` (one of FORMATS); raises ValueError for another name.

    ``exit_code`` is the status the command decided, carried by the json format.
    """
    if fmt == "text":
        return render_text(outcome, color=color, quiet=quiet)
    if fmt == "json":
        from conformance.report.problems_json import render_json

        return render_json(outcome, exit_code=exit_code)
    if fmt == "github":
        return render_github(outcome, quiet=quiet)
    if fmt == "junit":
        from conformance.report.problems_junit import render_junit

        return render_junit(outcome, strict=strict)
    if fmt == "sarif":
        from conformance.report.problems_sarif import render_sarif

        return render_sarif(outcome)
    if fmt == "ctrf":
        from conformance.report.problems_ctrf import render_ctrf

        return render_ctrf(outcome, strict=strict, exit_code=exit_code)
    raise ValueError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")


def summary(outcome: Validation) -> str:
    """One line: how many problems of each severity, files and documents."""
    counts = outcome.counts
    plural = {"error": "errors", "warning": "warnings", "info": "info"}
    found = ", ".join(f"{counts.get(level, 0)} {plural[level] if counts.get(level, 0) != 1 else level}"
                      for level in ("error", "warning", "info"))
    skipped = f", {outcome.skipped} skipped" if outcome.skipped else ""
    return (f"pas validate: {found} in {outcome.files} file{'s' if outcome.files != 1 else ''} "
            f"({outcome.documents} document{'s' if outcome.documents != 1 else ''} checked{skipped})")


def _text_line(problem: Problem, color: bool) -> str:
    if not color:
        return str(problem)
    where = f"{_BOLD}{problem.source}{_RESET}: " if problem.source else ""
    pointer = f" {_DIM}[{problem.pointer}]{_RESET}" if problem.pointer else ""
    severity = f"{_COLORS[problem.severity]}{problem.severity.value}{_RESET}"
    return f"{where}{severity} {_BOLD}{problem.code}{_RESET} {problem.message}{pointer}"


def render_text(outcome: Validation, *, color: bool = False, quiet: bool = False) -> str:
    """``path:line:col: severity code message [pointer]`` per problem, then a summary line."""
    lines = [_text_line(problem, color) for problem in outcome.problems]
    if not quiet:
        lines.append(summary(outcome))
    return "".join(line + "\n" for line in lines)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_line(problem: Problem) -> str:
    """A GitHub Actions workflow command that annotates the problem's file and line."""
    properties = []
    source = problem.source
    if source is not None and source.line is not None:
        properties.append(f"file={_escape_property(source.path)}")
        properties.append(f"line={source.line}")
        if source.column is not None:
            properties.append(f"col={source.column}")
    properties.append(f"title={_escape_property(f'pas {problem.code}')}")
    prefix = f"{source.path}: " if source is not None and source.line is None else ""
    message = f"{prefix}{problem.message}{f' [{problem.pointer}]' if problem.pointer else ''}"
    return f"::{_GITHUB_LEVEL[problem.severity]} {','.join(properties)}::{_escape_data(message)}"


def render_github(outcome: Validation, *, quiet: bool = False) -> str:
    """One workflow command per problem (errors, warnings, notices), then the summary line."""
    lines = [github_line(problem) for problem in outcome.problems]
    if not quiet:
        lines.append(summary(outcome))
    return "".join(line + "\n" for line in lines)
