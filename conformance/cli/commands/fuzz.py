"""``pas fuzz``: differential testing of an implementation against the reference."""

from __future__ import annotations

import argparse
import sys

from conformance.cli.commands._args import positive
from conformance.documents.exit_codes import ExitCode

HELP = "Fuzz an implementation against the reference; shrink any disagreement into a scenario file."

_EPILOG = """\
implementations (--impl):
  reference                       the reference implementation, in-process
  python:package.module:factory   factory() returns an object with info, start(), apply()
  'cmd:COMMAND ARGS'              a program speaking the JSON-lines stdio protocol

Random plugin sets, host configs and step sequences run on IMPL and on the reference, compared
at every step; for an IMPL claiming the disclosure profile, random catalogues and disclosure
steps too, the reference running under the options IMPL declares; for one claiming the host
profile, random loads (dependencies, layered config, environment, --set values, failing setups
and hooks), starts, hooks, reloads and stops. The kinds of case claimed take turns (--profile
host, or disclosure, for those alone). The first disagreement (or crash, hang, protocol error)
is shrunk and written to DIR as fuzz-<hash>.yaml: a scenario that passes on the reference and
fails on IMPL. A disagreement that shows only after earlier cases (state kept from one case to
the next) is written with them: as one scenario when it can be one, else as a folder
fuzz-seq-<hash>/ of scenarios to run in name order.

exit status: 0 nothing found, 1 found (the file's path and the first differing step are
printed), 2 usage error or nothing to fuzz (none of activation, text, disclosure and host claimed),
128+N stopped by signal N with nothing found (130 SIGINT, 143 SIGTERM, 129 SIGHUP; what was found so far is
still written)"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``pas fuzz``."""
    from conformance.adapters.implementation import DEFAULT_STEP_TIMEOUT
    from reference_impl.model import Profile

    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = _EPILOG
    parser.add_argument("--impl", required=True, metavar="IMPL", help="the implementation under test (see below)")
    parser.add_argument("--max-examples", type=positive(int), default=500, metavar="N",
                        help="generated cases to try (default: 500)")
    parser.add_argument("--seed", type=int, metavar="S", help="make the run reproducible (default: a random seed, printed)")
    parser.add_argument("--time-budget", type=positive(float), metavar="SECONDS",
                        help="stop searching after this long (default: no limit)")
    parser.add_argument("--out", default=".", metavar="DIR", help="where to write the scenario file (default: .)")
    parser.add_argument("--profile", action="append", choices=tuple(p.value for p in Profile), metavar="PROFILE",
                        help="compare only these profiles (repeatable: activation, text, host, disclosure; "
                             "default: all claimed)")
    parser.add_argument("--timeout", type=positive(float), default=DEFAULT_STEP_TIMEOUT, metavar="SECONDS",
                        help=f"per-step timeout for cmd: implementations (default: {DEFAULT_STEP_TIMEOUT:g})")


def _usage(*messages: object) -> int:
    for message in messages:
        print(f"pas fuzz: {message}", file=sys.stderr)
    return ExitCode.USAGE


def run(args: argparse.Namespace) -> int:
    """Fuzz, write the finding, print the summary; return the exit code."""
    from pathlib import Path

    from conformance.adapters.select import BadImplementation, adapter_for
    from conformance.cli.progress import FuzzProgress
    from conformance.cli.signals import close_adapter, finish, stop_on_signals
    from conformance.fuzz.search import FuzzOptions, fuzz
    from conformance.fuzz.session import write_finding

    if Path(args.out).exists() and not Path(args.out).is_dir():
        return _usage(f"--out {args.out}: not a directory")
    try:
        adapter = adapter_for(args.impl, timeout=args.timeout)
    except BadImplementation as error:  # one message (a line per problem at the user's file:line)
        return _usage(*(error.problems or [error]))
    options = FuzzOptions(max_examples=args.max_examples, seed=args.seed, time_budget=args.time_budget,
                          profiles=args.profile)
    progress = FuzzProgress(sys.stderr, total=args.max_examples, budget=args.time_budget)
    with stop_on_signals() as guard:  # SIGINT, SIGTERM, SIGHUP: stop searching, write what was found
        try:
            result = fuzz(adapter, options, on_progress=progress.update)
            summary = write_finding(result, adapter, impl=args.impl, out_dir=args.out)
        finally:
            finish(progress.close)
            close_adapter(adapter, "fuzz")
    sys.stdout.write(summary)
    sys.stdout.flush()
    from conformance.cli.exit_status import fuzz_exit_code

    return fuzz_exit_code(result, signum=guard.signum)
