"""``pas config explain HOSTCONFIG [MODULE] --plugins DIR``: merged plugin config and where each value came from."""

from __future__ import annotations

import argparse
import json
import os
import sys

from conformance.documents.exit_codes import ExitCode

HELP = "Plugin configuration tools: 'explain' shows a plugin's merged config and the layer of every value."

EPILOG = """\
Layers, lowest first: defaults (the manifest's config.defaults) < file (the host config's
config entry) < environment (PAS__<MODULE>__<KEY>[__<SUBKEY>...], values parsed as JSON when
they parse) < command line (--set module.key.sub=value). Mappings merge key by key; lists
and scalars replace. Every leaf value is shown with the layer that set it and where.

Give MODULE right after HOSTCONFIG (or put every option first): argparse cannot pick up a
positional argument that comes after an option.

The host config and the plugin folder are read as pas validate and pas host plan read them;
their problems are shown after the tables.

exit status: 0 ok, 1 the shown config or the files have errors (e.g. a value invalid against
the plugin's config schema, a manifest invalid against its schema), 2 usage or I/O error (a
missing or unreadable path, no plugin manifest, unknown MODULE, malformed --set).
"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``explain`` subcommand and its arguments."""
    commands = parser.add_subparsers(dest="config_command", metavar="SUBCOMMAND", required=True)
    explain = commands.add_parser("explain", help="a plugin's merged config with the layer of every value",
                                  description=HELP, epilog=EPILOG,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    explain.add_argument("host_config", metavar="HOSTCONFIG", help="the host config file (YAML or JSON)")
    explain.add_argument("module", metavar="MODULE", nargs="?",
                         help="one plugin's module_name (default: every loaded plugin)")
    explain.add_argument("--plugins", default=None, metavar="DIR",
                      help="folder of plugin manifests, searched recursively (default: the bundled examples, "
                           "conformance/examples/plugins)")
    explain.add_argument("--set", action="append", default=[], dest="overrides", metavar="MODULE.KEY=VALUE",
                         help="command-line override (repeatable; VALUE is JSON when it parses)")
    explain.add_argument("-f", "--format", choices=("text", "json"), default="text",
                         help="output format (default: text)")


def _rows(config, inputs) -> list[tuple[str, str, str, str]]:
    from conformance.tools.host_plan import provenance_source
    from reference_impl.frozen import thaw
    from reference_impl.host_config import leaves
    from reference_impl.problems import pointer_of

    rows = []
    for path, value in leaves(config.value):
        pointer = pointer_of(path)
        provenance = config.provenance.get(pointer)
        layer = provenance.layer.value if provenance else "?"
        source = provenance_source(provenance, inputs) if provenance else ""
        rows.append((pointer, json.dumps(thaw(value), ensure_ascii=False), layer, source))
    return rows


def _table(name: str, rows: list[tuple[str, str, str, str]]) -> str:
    if not rows:
        return f"{name}\n  (no configuration)"
    header = ("KEY", "VALUE", "LAYER", "SOURCE")
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(3)]
    lines = [name] + ["  " + "  ".join(cell.ljust(w) for cell, w in zip(r[:3], widths)) + "  " + r[3]
                      for r in (header, *rows)]
    return "\n".join(line.rstrip() for line in lines)


def _render(names, plan, inputs, located, fmt: str) -> str:
    from conformance.tools.host_plan import format_problem, provenance_source

    if fmt == "json":
        plugins = {}
        for name in names:
            config = plan.configs[name]
            doc = config.to_json()
            for pointer, provenance in config.provenance.items():
                doc["provenance"][pointer]["source"] = provenance_source(provenance, inputs)
            plugins[name] = doc
        doc = {"plugins": plugins, "problems": [p.to_json() for p in located]}
        return json.dumps(doc, indent=2, ensure_ascii=False)
    blocks = [_table(name, _rows(plan.configs[name], inputs)) for name in names]
    return "\n\n".join(blocks + (["\n".join(format_problem(p) for p in located)] if located else []))


def run(args: argparse.Namespace) -> int:
    """Print the merged config(s); exit 1 when the shown config has errors, 2 on usage or I/O errors."""
    from conformance.cli.exit_status import problems_exit_code as exit_code_of
    from conformance.documents.plugin_set import load_plugin_set
    from conformance.tools.host_plan import USAGE_CODES, format_problem, locate, plan_of
    from conformance.tools.simulate.simulation import EXAMPLE_PLUGINS

    inputs = load_plugin_set(args.plugins or EXAMPLE_PLUGINS, args.host_config)
    problems = list(inputs.problems)
    if inputs.host is None or exit_code_of(problems) == ExitCode.USAGE:
        print("\n".join(format_problem(p) for p in problems), file=sys.stderr)
        return exit_code_of(problems) or ExitCode.FAILED
    plan = plan_of(inputs, os.environ, args.overrides)
    usage = [p for p in plan.problems if p.code in USAGE_CODES]
    if usage:
        print("\n".join(f"pas config explain: {p.message}" for p in usage), file=sys.stderr)
        return ExitCode.USAGE
    if args.module is not None and args.module not in plan.configs:
        loaded = ", ".join(plan.load_order) or "none"
        print(f"pas config explain: plugin '{args.module}' is not loaded (loaded: {loaded})", file=sys.stderr)
        return ExitCode.USAGE
    names = [args.module] if args.module else list(plan.load_order)
    shown = [p for p in plan.problems
             if set(p.plugins) & set(names) and p.code.startswith(("env-", "override-", "invalid-config"))]
    located = [*problems, *(locate(p, inputs) for p in shown)]  # the files' problems, as pas host plan shows them
    print(_render(names, plan, inputs, located, args.format))
    return exit_code_of(located)
