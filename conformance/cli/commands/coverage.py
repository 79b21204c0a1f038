"""``pas coverage``: which scenarios cover each requirement; fails when one is uncovered."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from conformance.documents.exit_codes import ExitCode

HELP = "Show which scenarios cover each requirement; fail when a requirement is uncovered."

_EPILOG = """\
A scenario covers a requirement when its `covers` names it, or when one of its steps' `covers`
does (shown as id#step). Requirements cited by a scenario but missing from
spec/requirements.yaml are reported too.

exit status: 0 every requirement of the profiles is covered, 1 some are uncovered (or a
scenario cites an unknown requirement), 2 usage or input errors"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``pas coverage``."""
    from reference_impl.model import Profile

    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = _EPILOG
    parser.add_argument("--profile", action="append", choices=tuple(p.value for p in Profile), metavar="PROFILE",
                        help="check the requirements of these profiles (repeatable; default: activation, text, host and disclosure)")
    parser.add_argument("--scenario", action="append", default=[], metavar="PATH",
                        help="a scenario file or folder (repeatable; default: the bundled suite)")
    parser.add_argument("-f", "--format", choices=("text", "json"), default="text", help="output format (default: text)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE instead of standard output")


def _cited(row: Any) -> str:
    """``id`` for a scenario-level citation, ``id#2,5`` when only steps 2 and 5 cite it."""
    steps: dict[str, list[str] | None] = {}
    for citation in row.citations:
        if citation.step is None:
            steps[citation.scenario] = None
        else:
            cited = steps.setdefault(citation.scenario, [])
            if cited is not None:
                cited.append(str(citation.step))
    return ", ".join(s if at is None else f"{s}#{','.join(at)}" for s, at in steps.items())


def _text(coverage: Any) -> str:
    lines = []
    for row in coverage.rows:
        r = row.requirement
        status = "uncovered" if not row.citations else f"{len(row.scenarios)} scenario(s)"
        lines.append(f"{r.id:15} {r.level:6} {status:15} {_cited(row)}".rstrip())
    for requirement, citations in coverage.unknown.items():
        names = ", ".join(dict.fromkeys(c.scenario for c in citations))
        lines.append(f"{requirement:15} unknown requirement, cited by {names}")
    covered = sum(1 for row in coverage.rows if row.citations)
    lines.append(f"{covered} of {len(coverage.rows)} requirements covered ({', '.join(coverage.profiles)})"
                 + (f"; uncovered: {', '.join(r.id for r in coverage.uncovered)}" if coverage.uncovered else ""))
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """Load the suite and the requirements, print the coverage, return the exit code."""
    from conformance.suite.coverage import DEFAULT_PROFILES, check_coverage, load_requirements
    from conformance.suite.scenario import load_suite

    scenarios, problems = load_suite(args.scenario)
    requirements, requirement_problems = load_requirements()
    for problem in [*problems, *requirement_problems]:
        print(f"pas coverage: {problem}", file=sys.stderr)
    if problems or requirement_problems:
        return ExitCode.USAGE
    from conformance.cli.commands._output import write_report

    coverage = check_coverage(scenarios, requirements, args.profile or DEFAULT_PROFILES)
    report = json.dumps(coverage.to_json(), ensure_ascii=False, indent=2) + "\n" if args.format == "json" else _text(coverage)
    if not write_report(report, args.output, command="coverage"):
        return ExitCode.USAGE
    return ExitCode.OK if coverage.ok else ExitCode.FAILED
