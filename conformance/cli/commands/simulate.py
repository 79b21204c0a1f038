"""``pas simulate``: show, run by run, what the model sees of each plugin."""

from __future__ import annotations

import argparse
import sys
from typing import IO

from conformance.documents.exit_codes import ExitCode

HELP = "Run a short script on the reference and show, run by run or model call by model call, what the model sees."

_EPILOG = """\
script commands (one per line or separated by ';', '#' starts a comment):
{commands}
ROUNDS is read as JSON when it parses (2.5 and "x" test invalid_argument).
The disclosure commands (request, load, unload, search, list, invoke, end, rebuild, trim,
idle, clear) run on the catalogue of --tools (default: the bundled example, five tools, clock
always visible) under the options of --disclosure; each request and model step shows the next
model call's tool list (loader tools as @load, @unload, @search, @list) and each call's answer.
Calls joined by '&' are one model step: "request; load weather & invoke clock; invoke weather".

With no --plugins and no --host the bundled example plugins and host config are used;
with --plugins but no --host every plugin in the folder is enabled. With no script the
bundled default script runs (the worked example: weather activated for 3 runs).

--plugins is read as pas validate reads a path (a folder, searched recursively for *.yaml,
*.yml and *.json, or one file): the same documents, kinds and problems. Host configs and
other documents found there are checked but not used as plugins.

exit status: 0 done, 1 errors in the plugin or host files (as pas validate reports them),
2 bad script, a missing or unreadable path, or no plugin manifest at all"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``pas simulate``."""
    from conformance.tools.simulate.script import command_help  # the commands come from the step table

    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = _EPILOG.format(commands=command_help())
    parser.add_argument("script", nargs="?", help="the script text, e.g. \"run; activate weather; run\"")
    parser.add_argument("--script", dest="script_file", metavar="FILE", help="read the script from FILE")
    parser.add_argument("--plugins", metavar="DIR", help="folder of plugin manifests, or one manifest file "
                        "(default: the bundled examples)")
    parser.add_argument("--host", metavar="FILE", help="host config file (default: see below)")
    parser.add_argument("--tools", metavar="FILE", help="the catalogue of the disclosure commands: a YAML or JSON "
                        "file with tools: [{name, description, always_visible?}, ...] (default: the bundled example)")
    parser.add_argument("--disclosure", default="", metavar="OPTIONS", help="the disclosure options to run under, "
                        "e.g. 'state_scope=instance,discovery=search_then_load' (default: the recommended values)")
    parser.add_argument("-f", "--format", choices=("table", "json", "svg"), default="table",
                        help="output format (default: table; svg: a run x plugin picture of the states)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE instead of standard output")
    parser.add_argument("--text", action="store_true", help="show the reference prompt text and reply text")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                        help="colour the output (auto: on a terminal, unless NO_COLOR is set)")


def _use_color(choice: str, stream: IO[str]) -> bool:
    from conformance.report import use_color

    return use_color(choice, stream)


def _script(args: argparse.Namespace) -> tuple[str | None, str, tuple]:
    """The script text, its name for error locations, and any problem reading it."""
    from conformance.tools.simulate.simulation import DEFAULT_SCRIPT, read_script

    if args.script_file is not None:
        text, problems = read_script(args.script_file)
        return text, args.script_file, problems
    if args.script is not None:
        return args.script, "script", ()
    text, problems = read_script(DEFAULT_SCRIPT)
    return text, str(DEFAULT_SCRIPT), problems


def run(args: argparse.Namespace) -> int:
    """Simulate, print the report to stdout and problems to stderr; return the exit code."""
    from conformance.tools.simulate.report import render_json, render_problems, render_steps, render_svg
    from conformance.tools.simulate.simulation import simulate

    if args.script is not None and args.script_file is not None:
        print("pas simulate: give the script as an argument or with --script, not both", file=sys.stderr)
        return ExitCode.USAGE
    color, stderr_color = _use_color(args.color, sys.stdout), _use_color(args.color, sys.stderr)
    text, name, problems = _script(args)
    if text is None:
        sys.stderr.write(render_problems(problems, color=stderr_color))
        return ExitCode.USAGE
    from reference_impl.disclosure_options import Options
    from reference_impl.errors import MalformedDocument

    try:
        declared = Options.from_text(args.disclosure)
    except MalformedDocument as error:
        print(f"pas simulate: --disclosure: {error}", file=sys.stderr)
        return ExitCode.USAGE
    result = simulate(text, plugins=args.plugins, host=args.host, script_name=name, text=args.text, tools=args.tools,
                      disclosure=declared)
    sys.stderr.write(render_problems(result.problems, result.script_problems, color=stderr_color))
    if not result.ok:
        from conformance.cli.exit_status import problems_exit_code as exit_code_of

        return ExitCode.USAGE if result.script_problems else exit_code_of(result.problems)
    from conformance.cli.commands._output import write_report

    if args.format == "json":
        report = render_json(result)
    elif args.format == "svg":
        report = render_svg(result)
    else:
        report = render_steps(result, text=args.text, color=color and args.output is None)
    return ExitCode.OK if write_report(report, args.output, command="simulate") else ExitCode.USAGE
