"""``pas report``: pages and badges made from saved ``pas run --format json`` reports."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from conformance.cli.commands._output import write_report
from conformance.documents.exit_codes import ExitCode

HELP = "Make a compatibility matrix, a badge or a diff of two runs from saved JSON-lines results (pas run --format json)."

_EPILOG = """\
reports:
  matrix RESULT.jsonl...   several implementations side by side: scenario x implementation,
                           grouped by requirement; markdown, or one self-contained HTML file
  badge RESULT.jsonl       a shields.io endpoint JSON, or an SVG badge
  diff A.jsonl B.jsonl     the scenarios and requirements whose state changed from A to B
                           (two runs of one implementation, or two implementations); text,
                           or markdown for a pull-request comment

Write each RESULT.jsonl with: pas run --impl IMPL --format json --output RESULT.jsonl

exit status: 0 written (whatever the results say), 1 written but a report had problems
(for example no summary line), 2 usage or input errors (unreadable or not a results file).
diff: 0 nothing got worse from A to B, 1 a scenario or requirement got worse (passed or
skipped before, failed, errored or stale after; or passed before and no longer), 2 usage
or input errors"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the subcommands of ``pas report``."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = _EPILOG
    reports = parser.add_subparsers(dest="report", metavar="REPORT")
    matrix = reports.add_parser("matrix", help="a compatibility matrix of several implementations",
                                description="Combine several implementations' results into one matrix.")
    matrix.add_argument("results", nargs="+", metavar="RESULT.jsonl", help="a pas run --format json report, one per implementation")
    matrix.add_argument("--format", choices=("markdown", "html"),
                        help="output format (default: html when --output ends in .html or .htm, else markdown)")
    matrix.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    badge = reports.add_parser("badge", help="a badge of one implementation's results",
                               description="A shields.io endpoint JSON or an SVG badge from one report.")
    badge.add_argument("results", metavar="RESULT.jsonl", help="a pas run --format json report")
    badge.add_argument("--format", choices=("json", "svg"),
                       help="output format (default: svg when --output ends in .svg, else json)")
    badge.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    diff = reports.add_parser("diff", help="what changed between two runs or two implementations",
                              description="The scenarios and requirements whose state changed from A to B.")
    diff.add_argument("results", nargs=2, metavar="RESULT.jsonl", help="the first (A) and the second (B) report")
    diff.add_argument("--format", choices=("text", "markdown"), default="text",
                      help="output format (default: text; markdown for a pull-request comment)")
    diff.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")


def _fail(message: str) -> int:
    print(f"pas report: {message}", file=sys.stderr)
    return ExitCode.USAGE


def _load(paths: list[str]):  # -> (runs, problems) or None after printing why
    from conformance.report.matrix import parse_results
    from reference_impl.problems import Severity

    runs, problems = [], []
    for path in paths:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            _fail(f"cannot read {path}: {getattr(error, 'strerror', None) or error}")
            return None
        run, found = parse_results(text, path)
        problems += found
        if run is not None:
            runs.append(run)
    for problem in problems:
        print(f"pas report: {problem}", file=sys.stderr)
    if any(p.severity is Severity.ERROR for p in problems):
        return None
    return runs, problems


def _matrix(args: argparse.Namespace) -> int:
    from conformance.report.matrix import build_matrix
    from conformance.suite.coverage import load_requirements

    loaded = _load(args.results)
    if loaded is None:
        return ExitCode.USAGE
    runs, problems = loaded
    fmt = args.format or ("html" if (args.output or "").lower().endswith((".html", ".htm")) else "markdown")
    if fmt == "html":
        from conformance.report.matrix_html import render_matrix
    else:
        from conformance.report.matrix_md import render_matrix
    matrix = build_matrix(runs, load_requirements()[0])
    if not write_report(render_matrix(matrix), args.output, command="report"):
        return ExitCode.USAGE
    return ExitCode.FAILED if problems else ExitCode.OK


def _badge(args: argparse.Namespace) -> int:
    from conformance.report.badge import endpoint_json, make_badge, svg, tally

    loaded = _load([args.results])
    if loaded is None:
        return ExitCode.USAGE
    (run,), problems = loaded
    entries = ((cell.outcome, run.needs.get(sid, ())) for sid, cell in run.cells.items())
    badge = make_badge(tally(entries, run.profiles), said_hello=run.said_hello, interrupted=run.interrupted,
                       spec_version=run.spec_version)
    fmt = args.format or ("svg" if (args.output or "").lower().endswith(".svg") else "json")
    if not write_report(svg(badge) if fmt == "svg" else endpoint_json(badge), args.output, command="report"):
        return ExitCode.USAGE
    return ExitCode.FAILED if problems else ExitCode.OK


def _diff(args: argparse.Namespace) -> int:
    from conformance.report.diff import diff_runs
    from conformance.report.diff_render import render_markdown, render_text

    loaded = _load(args.results)
    if loaded is None:
        return ExitCode.USAGE
    (before, after), _ = loaded
    diff = diff_runs(before, after)
    if not write_report((render_markdown if args.format == "markdown" else render_text)(diff), args.output,
                        command="report"):
        return ExitCode.USAGE
    return ExitCode.FAILED if diff.worse else ExitCode.OK


def run(args: argparse.Namespace) -> int:
    """Dispatch to the report asked for; return the exit code."""
    reports = {"matrix": _matrix, "badge": _badge, "diff": _diff}
    if args.report in reports:
        return reports[args.report](args)
    return _fail("name a report: matrix, badge or diff (see pas report --help)")
