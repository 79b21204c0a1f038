"""``pas run``: run the conformance suite against an implementation and report the results."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Mapping

from conformance.cli.commands._args import positive
from conformance.documents.exit_codes import ExitCode

HELP = "Run the conformance suite against an implementation and report the results."

_EPILOG = """\
implementations (--impl):
  reference                       the reference implementation, in-process (default)
  python:package.module:factory   factory() returns an object with info, start(), apply()
  'cmd:COMMAND ARGS'              a program speaking the JSON-lines stdio protocol

limits: --max-time stops the run after SECONDS (the scenarios not run are reported as skipped,
with the reason); -x stops at the first failure or error; after --max-start-failures
consecutive failures to start or greet the implementation, and after --max-repeats consecutive
scenarios that hung or crashed the same way, the run stops with one message.
On SIGINT, SIGTERM or SIGHUP the report of the scenarios run so far is written (marked
interrupted), then the implementation is stopped, and the exit status names the signal.
Progress (scenarios done, failures, time left) is drawn on standard error when it is a
terminal, unless --quiet.

exit status: 0 every scenario passed (expected failures and skips allowed),
1 failures, errors or stale expected failures (or --max-time / -x stopped the run),
2 usage or input errors (a python: implementation whose info, start or apply is missing
or has the wrong signature, said once, at its file and line), an implementation that cannot
be started, or nothing to test,
128+N stopped by signal N (130 SIGINT, 143 SIGTERM, 129 SIGHUP)"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``pas run``."""
    from conformance.adapters.implementation import DEFAULT_STEP_TIMEOUT
    from conformance.report import FORMATS
    from reference_impl.model import Profile

    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = _EPILOG
    parser.add_argument("--impl", default="reference", metavar="IMPL", help="the implementation under test (see below)")
    parser.add_argument("--scenario", action="append", default=[], metavar="PATH",
                        help="a scenario file or folder (repeatable; default: the bundled suite)")
    parser.add_argument("--profile", action="append", choices=tuple(p.value for p in Profile), metavar="PROFILE",
                        help="test only these profiles (repeatable: activation, text, host, disclosure; default: all claimed)")
    parser.add_argument("--spec-version", metavar="VERSION",
                        help="run exactly the scenarios of this spec version (major.minor, e.g. 1.0) and judge only its "
                             "requirements (default: the newest)")
    parser.add_argument("-k", dest="keyword", metavar="PATTERN",
                        help="only scenarios whose id or title contains PATTERN (not, and, or, parentheses work)")
    parser.add_argument("-f", "--format", choices=FORMATS, default="text",
                        help="report format (default: text; json is written as each scenario finishes, to a file "
                             "into .FILE.PID.*.partial beside it, renamed to FILE at the end)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE instead of standard output")
    parser.add_argument("--expected-failures", metavar="FILE", help="YAML mapping of scenario id to the reason it fails")
    parser.add_argument("--timeout", type=positive(float), default=DEFAULT_STEP_TIMEOUT, metavar="SECONDS",
                        help=f"per-step timeout for cmd: implementations (default: {DEFAULT_STEP_TIMEOUT:g})")
    parser.add_argument("--check-messages", action="store_true",
                        help="check every stdio protocol message against its JSON Schema")
    parser.add_argument("--max-time", type=positive(float), metavar="SECONDS",
                        help="stop the whole run after SECONDS; the rest is reported as not run (default: no limit)")
    parser.add_argument("--max-start-failures", type=positive(int), default=3, metavar="N",
                        help="stop after N consecutive failures to start or greet the implementation (default: 3)")
    parser.add_argument("--max-repeats", type=positive(int), default=3, metavar="N",
                        help="stop after N scenarios in a row hang or crash the same way (default: 3)")
    parser.add_argument("-x", "--fail-fast", action="store_true", help="stop at the first failure or error")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress line on the terminal")


def _usage(messages: Iterable[object]) -> int:
    for message in messages:
        print(f"pas run: {message}", file=sys.stderr)
    return ExitCode.USAGE


def _nothing_selected(args: argparse.Namespace, scenarios: list) -> str:
    """Why no scenario is left, naming the real cause: the folder, -k, or --profile."""
    if not scenarios:
        where = ", ".join(args.scenario) or "the bundled suite"
        return f"no scenario to run: {where} holds no scenario file"
    from conformance.suite.runner import select_scenarios

    causes = []
    if args.keyword and not select_scenarios(scenarios, keyword=args.keyword):
        causes.append(f"-k {args.keyword!r} matches none of the {len(scenarios)} scenarios")
    if args.profile and not select_scenarios(scenarios, profiles=args.profile):
        causes.append(f"--profile {' --profile '.join(args.profile)} leaves none of the {len(scenarios)} scenarios")
    if args.spec_version and not select_scenarios(scenarios, spec_version=args.spec_version):
        causes.append(f"--spec-version {args.spec_version} leaves none of the {len(scenarios)} scenarios")
    if not causes:
        causes.append(f"-k {args.keyword!r} and --profile {' --profile '.join(args.profile or ())} together "
                      f"leave none of the {len(scenarios)} scenarios")
    return "no scenario to run: " + "; ".join(causes)


def run(args: argparse.Namespace) -> int:
    """Start the implementation, load and select while it starts, run, report; return the exit code.

    One signal guard covers everything from the start of the implementation on. A signal while
    the suite loads is held until it has loaded; then the report is written with every scenario
    "not run: interrupted by SIG...", the implementation closed, and the exit code is 128 + it.
    """
    from conformance.adapters.select import BadImplementation, adapter_for
    from conformance.cli.signals import close_adapter, stop_on_signals
    from conformance.suite.spec_versions import UnknownSpecVersion, full_version, resolve

    try:
        version = resolve(args.spec_version)
    except UnknownSpecVersion as error:
        return _usage([error])
    with stop_on_signals() as guard:
        with guard.deferred():
            try:
                # Started now, it spends its start-up while the suite loads (issue 18).
                adapter = adapter_for(args.impl, timeout=args.timeout, check_messages=args.check_messages,
                                      start_early=True, spec_version=full_version(version))
            except BadImplementation as error:  # one message (a line per problem at the user's file:line)
                return _usage(error.problems or [error])
            prepared = _prepare(args, version)
        if isinstance(prepared, int):
            close_adapter(adapter, "run")
            return prepared
        selected, expected, version = prepared
        return _run_and_report(args, adapter, selected, expected, version, guard)


def _prepare(args: argparse.Namespace, version: str) -> tuple[list, Mapping[str, str], str] | int:
    """The selected scenarios of spec ``version``, the expected failures and the version, or the usage exit code after saying why."""
    from conformance.suite.expected_failures import load_expected_failures
    from conformance.suite.keywords import BadKeyword
    from conformance.suite.runner import select_scenarios
    from conformance.suite.scenario import load_suite

    scenarios, problems = load_suite(args.scenario)
    if problems:
        return _usage(problems)
    expected: Mapping[str, str] = {}
    if args.expected_failures:
        expected, problems = load_expected_failures(args.expected_failures, {s.id for s in scenarios})
        if problems:
            return _usage(problems)
    try:
        selected = select_scenarios(scenarios, keyword=args.keyword, profiles=args.profile, spec_version=version)
    except BadKeyword as error:
        return _usage([error])
    if not selected:
        return _usage([_nothing_selected(args, scenarios)])
    return selected, expected, version


def _run_and_report(args: argparse.Namespace, adapter, selected: list, expected: Mapping[str, str], version: str,
                    guard) -> int:
    """Run under the caller's signal guard, stream the report, close the implementation on every path."""
    from conformance.cli.exit_status import run_exit_code
    from conformance.cli.progress import RunProgress
    from conformance.cli.signals import close_adapter, finish
    from conformance.report import use_color
    from conformance.report.stream import ReportSink
    from conformance.suite.runner import RunLimits, run_suite, signal_stop

    color = args.output is None and args.format == "text" and use_color("auto", sys.stdout)
    sink = ReportSink(args.format, args.output, color=color)
    progress = RunProgress(sys.stderr, total=len(selected), max_time=args.max_time, enabled=False if args.quiet else None)
    limits = RunLimits(max_time=args.max_time, fail_fast=args.fail_fast, max_start_failures=args.max_start_failures,
                       max_repeats=args.max_repeats)
    if not sink.open():
        close_adapter(adapter, "run")
        return ExitCode.USAGE

    def on_result(scenario_result) -> None:
        sink.result(scenario_result)
        progress.update(scenario_result)

    try:
        result = run_suite(adapter, selected, expected=expected, profiles=args.profile, on_result=on_result,
                           limits=limits, spec_version=version, stop=signal_stop(guard.signum) if guard.signum is not None else None)
    except BaseException:
        close_adapter(adapter, "run", quick=True)
        raise
    # The report before the goodbye: closing may wait a timeout for it, and after a signal a supervisor's
    # SIGKILL may come first. A signal while the report is written is acted on once it is whole.
    with guard.deferred():
        finish(progress.close)
        code = run_exit_code(result, signum=guard.signum)
        written = sink.finish(result, exit_code=code)
    close_adapter(adapter, "run", quick=guard.signum is not None)
    if result.stop is not None:
        print(f"pas run: {result.stop.message}", file=sys.stderr)
    code = run_exit_code(result, signum=guard.signum)
    return code if written else ExitCode.worst(code, ExitCode.USAGE)
