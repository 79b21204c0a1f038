"""``pas run``: run the conformance suite against an implementation and report the results."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable

from conformance.adapters.implementation import DEFAULT_STEP_TIMEOUT
from conformance.cli.commands._args import positive
from conformance.cli.commands._output import write_report

HELP = "Run the conformance suite against an implementation and report the results."

_EPILOG = """\
implementations (--impl):
  reference                       the reference implementation, in-process (default)
  python:package.module:factory   factory() returns an object with info, start(), apply()
  'cmd:COMMAND ARGS'              a program speaking the JSON-lines stdio protocol

exit status: 0 every scenario passed (expected failures and skips allowed),
1 failures, errors or stale expected failures, 2 usage or input errors,
130 interrupted (the report of the scenarios run so far is still written)"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``pas run``."""
    from conformance.report import FORMATS

    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = _EPILOG
    parser.add_argument("--impl", default="reference", metavar="IMPL", help="the implementation under test (see below)")
    parser.add_argument("--scenario", action="append", default=[], metavar="PATH",
                        help="a scenario file or folder (repeatable; default: the bundled suite)")
    parser.add_argument("--profile", action="append", choices=("activation", "text", "host"), metavar="PROFILE",
                        help="test only these profiles (repeatable: activation, text, host; default: all claimed)")
    parser.add_argument("-k", dest="keyword", metavar="PATTERN",
                        help="only scenarios whose id or title contains PATTERN (not, and, or, parentheses work)")
    parser.add_argument("--format", choices=FORMATS, default="text", help="report format (default: text)")
    parser.add_argument("--output", metavar="FILE", help="write the report to FILE instead of standard output")
    parser.add_argument("--expected-failures", metavar="FILE", help="YAML mapping of scenario id to the reason it fails")
    parser.add_argument("--timeout", type=positive(float), default=DEFAULT_STEP_TIMEOUT, metavar="SECONDS",
                        help=f"per-step timeout for cmd: implementations (default: {DEFAULT_STEP_TIMEOUT:g})")
    parser.add_argument("--check-messages", action="store_true",
                        help="check every stdio protocol message against its JSON Schema")


def _usage(messages: Iterable[object]) -> int:
    for message in messages:
        print(f"pas run: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Load, select, run, report; return the exit code."""
    from conformance.adapters.select import BadImplementation, adapter_for
    from conformance.suite.expected_failures import load_expected_failures
    from conformance.suite.keywords import BadKeyword
    from conformance.report import render, use_color
    from conformance.suite.runner import run_suite, select_scenarios
    from conformance.suite.scenario import load_suite

    scenarios, problems = load_suite(args.scenario)
    if problems:
        return _usage(problems)
    expected: dict[str, str] = {}
    if args.expected_failures:
        expected, problems = load_expected_failures(args.expected_failures, {s.id for s in scenarios})
        if problems:
            return _usage(problems)
    try:
        selected = select_scenarios(scenarios, keyword=args.keyword, profiles=args.profile)
        adapter = adapter_for(args.impl, timeout=args.timeout, check_messages=args.check_messages)
    except (BadKeyword, BadImplementation) as error:
        return _usage([error])
    if not selected:
        return _usage(["no scenario matches the -k pattern and --profile given"])
    try:
        result = run_suite(adapter, selected, expected=expected, profiles=args.profile)
    finally:
        try:
            adapter.close()
        except Exception as error:  # noqa: BLE001 - the report matters more than a clean goodbye
            print(f"pas run: closing the implementation failed: {error}", file=sys.stderr)
    color = args.output is None and args.format == "text" and use_color(sys.stdout)
    if not write_report(render(result, args.format, color=color), args.output, command="run"):
        return 2
    return 130 if result.interrupted else result.exit_code
