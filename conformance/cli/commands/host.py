"""``pas host plan HOSTCONFIG --plugins DIR``: load order, setup order and every problem, for a human."""

from __future__ import annotations

import argparse
import json
import os
import sys

from conformance.documents.exit_codes import ExitCode

HELP = "Host profile tools: 'plan' shows load order, setup order and every problem of a host config."

EPILOG = """\
The plan is what the reference host would do at register + validate: it reads the host config,
the plugin manifests under DIR (recursively, *.yaml/*.yml/*.json, in path order; read as pas
validate reads them, host configs and other documents there checked but not used), the PAS__
environment variables (PAS__<MODULE>__<KEY>[__<SUBKEY>...]) and any --set overrides. No plugin
code runs.

exit status: 0 no errors (warnings allowed), 1 errors found (in the files, as pas validate
reports them, or in the plan), 2 usage or I/O error (a missing or unreadable path, no plugin
manifest, malformed --set or one naming no installed plugin).
"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``plan`` subcommand and its arguments."""
    commands = parser.add_subparsers(dest="host_command", metavar="SUBCOMMAND", required=True)
    plan = commands.add_parser("plan", help="load order, setup order and every problem of a host config",
                               description=HELP, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    plan.add_argument("host_config", metavar="HOSTCONFIG", help="the host config file (YAML or JSON)")
    plan.add_argument("--plugins", default=None, metavar="DIR",
                      help="folder of plugin manifests, searched recursively (default: the bundled examples, "
                           "conformance/examples/plugins)")
    plan.add_argument("--set", action="append", default=[], dest="overrides", metavar="MODULE.KEY=VALUE",
                      help="command-line config override (repeatable; VALUE is JSON when it parses)")
    plan.add_argument("-f", "--format", choices=("text", "json"), default="text", help="output format (default: text)")


def _text(plan, located, skipped_files) -> str:
    """The human report: orders, plugins not set up, problems, summary."""
    lines = [f"load order ({len(plan.load_order)}): {', '.join(plan.load_order) or '-'}",
             f"setup order ({len(plan.setup_order)}): {', '.join(plan.setup_order) or '-'}"]
    not_set_up = [f"{name} (invalid: {', '.join(codes)})" for name, codes in plan.invalid.items()]
    not_set_up += [f"{name} (depends on invalid '{cause}')" for name, cause in plan.blocked.items()]
    if not_set_up:
        lines.append(f"not set up ({len(not_set_up)}): {', '.join(not_set_up)}")
    from conformance.tools.host_plan import format_problem

    lines += [format_problem(p) for p in (*skipped_files, *located)]
    errors = sum(p.severity.value == "error" for p in (*skipped_files, *located))
    warnings = sum(p.severity.value == "warning" for p in (*skipped_files, *located))
    lines.append(f"{errors} error(s), {warnings} warning(s)")
    return "\n".join(lines)


def _json(plan, located, skipped_files) -> str:
    doc = {"load_order": list(plan.load_order), "setup_order": list(plan.setup_order),
           "invalid": {n: list(c) for n, c in plan.invalid.items()}, "blocked": dict(plan.blocked),
           "problems": [p.to_json() for p in (*skipped_files, *located)]}
    return json.dumps(doc, indent=2, ensure_ascii=False)


def run(args: argparse.Namespace) -> int:
    """Print the plan; exit 1 when it has errors, 2 when an input cannot be read."""
    from conformance.cli.exit_status import problems_exit_code as exit_code_of
    from conformance.documents.plugin_set import load_plugin_set
    from conformance.tools.host_plan import USAGE_CODES, format_problem, locate, plan_of
    from conformance.tools.simulate.simulation import EXAMPLE_PLUGINS
    from reference_impl.catalogue import DuplicateModule

    inputs = load_plugin_set(args.plugins or EXAMPLE_PLUGINS, args.host_config)
    problems = list(inputs.problems)
    if inputs.host is None or exit_code_of(problems) == ExitCode.USAGE:
        print("\n".join(format_problem(p) for p in problems), file=sys.stderr)
        return exit_code_of(problems) or ExitCode.FAILED
    try:
        plan = plan_of(inputs, os.environ, args.overrides)
    except DuplicateModule as error:  # load_plugin_set drops duplicates; kept as a guard
        print(f"pas host plan: {error}", file=sys.stderr)
        return ExitCode.USAGE
    usage = [p for p in plan.problems if p.code in USAGE_CODES]
    if usage:
        print("\n".join(f"pas host plan: {p.message}" for p in usage), file=sys.stderr)
        return ExitCode.USAGE
    located = [locate(p, inputs) for p in plan.problems]
    print(_json(plan, located, problems) if args.format == "json" else _text(plan, located, problems))
    return ExitCode.worst(exit_code_of(problems), exit_code_of(located))
