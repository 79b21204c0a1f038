"""``pas validate PATH...``: check plugin manifests and host configs, for people and for CI."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys

from conformance.cli.commands._args import positive
from conformance.cli.commands._output import write_report
from conformance.documents.exit_codes import ExitCode

HELP = "Check plugin manifests and host configs: schema, then semantic rules (for CI and pre-commit)."
_FORMATS = ("text", "json", "github", "junit", "sarif", "ctrf")
_KINDS = {"manifest": "plugin-manifest", "plugin-manifest": "plugin-manifest", "host-config": "host-config"}

EPILOG = """\
kinds: a document is a plugin manifest or a host config when it says so (kind: plugin-manifest
or kind: host-config), names our schema in $schema or in a '# yaml-language-server: $schema='
modeline, when its file is named so (pas-plugin.yaml or NAME.pas-plugin.yaml: manifest;
pas-host.yaml or NAME.pas-host.yaml: host config; .yml and .json too), when --kind says so,
or else by its shape (module_name: manifest; enabled, disabled, strategies or
scheduler_enabled: host config). Files named on the command line that are
neither are reported as info (unrecognized-document); files found in directories are skipped.

suppressing: '# pas: disable=CODE[,CODE]' on the reported line, '# pas: disable-file=CODE'
anywhere in the file, 'disable: [CODE]' in .pas.yaml, or --disable CODE.

formats: text (colour on a terminal unless NO_COLOR is set), json, github (the default when
GITHUB_ACTIONS=true), junit, sarif (2.1.0), ctrf (CTRF JSON: a test per file).

exit status: 0 no errors (warnings allowed unless --strict), 1 problems found,
2 usage or I/O error (missing path, unreadable file, bad option or config).
See docs/guides/validating.md and docs/rules/<code>.md; --list-rules prints every code.
"""


def _names(values: list[str] | None) -> list[str]:
    return [name.strip() for value in values or () for name in value.split(",") if name.strip()]


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``pas validate``."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG
    add = parser.add_argument
    add("paths", nargs="*", metavar="PATH", help="files, directories (searched for *.yaml, *.yml, *.json) or globs")
    add("--kind", choices=sorted(_KINDS), help="check every document as this kind, whatever it declares")
    add("-f", "--format", choices=_FORMATS, help="report format (default: github when GITHUB_ACTIONS=true, else text)")
    add("-o", "--output", metavar="FILE", help="write the report to FILE instead of standard output")
    add("--color", choices=("auto", "always", "never"), default="auto", help="colour the text format (default: auto)")
    add("--strict", action="store_true", help="warnings fail the run too (exit 1)")
    add("-q", "--quiet", action="store_true", help="no summary line")
    add("--config", metavar="FILE", help="config file (default: the nearest .pas.yaml in this folder or a parent)")
    add("--no-config", action="store_true", help="ignore any .pas.yaml")
    add("--disable", action="append", metavar="CODE[,CODE]", help="turn codes off (repeatable)")
    add("--brief-min-length", type=positive(int), metavar="N", help="brief-too-short below N columns (default 20)")
    add("--brief-max-length", type=positive(int), metavar="N", help="brief-too-long above N columns (default 400)")
    add("--known-module", action="append", metavar="NAME[,NAME]",
        help="a module provided outside the validated set (a host built-in); repeatable")
    add("--no-cross-file", action="store_true",
        help="skip the rules that compare files (dependencies, duplicates, strategies)")
    for cap, default in (("max-bytes", "2 MiB"), ("max-depth", "64"), ("max-aliases", "100"), ("max-nodes", "200000")):
        add(f"--{cap}", type=positive(int), metavar="N", help=f"loader cap (default {default})")
    add("-j", "--jobs", type=positive(int), metavar="N", help="worker processes (default: automatic for large sets)")
    add("--list-rules", action="store_true", help="print every code with its severity and exit")


def run(args: argparse.Namespace) -> int:
    """Validate, render, and return the exit status; never lets a traceback reach the user."""
    try:
        return _run(args)
    except Exception as error:  # noqa: BLE001 - the promise is: no traceback, exit 2
        print(f"pas validate: internal error: {type(error).__name__}: {error} (a bug in pas; please report it)",
              file=sys.stderr)
        return ExitCode.USAGE


def _run(args: argparse.Namespace) -> int:
    if args.list_rules:
        return _list_rules()
    if not args.paths:
        print("pas validate: give at least one PATH (a file, directory or glob); see pas validate --help",
              file=sys.stderr)
        return ExitCode.USAGE
    from conformance.validate.check import Kind, Settings, check_paths
    from conformance.validate.suppress import ConfigError

    try:
        config = _config(args)
    except ConfigError as error:
        print(f"pas validate: config error: {error}", file=sys.stderr)
        return ExitCode.USAGE
    settings = Settings(config=config, kind=Kind(_KINDS[args.kind]) if args.kind else None, jobs=args.jobs or 0)
    outcome = check_paths(args.paths, settings)
    if outcome.problems:  # a problem in an extracted manifest is reported at its .py line
        from conformance.validate.source_map import map_to_sources

        outcome = dataclasses.replace(outcome, problems=map_to_sources(outcome.problems))
    return _report(outcome, args)


def _config(args: argparse.Namespace):  # -> Config
    import dataclasses
    from pathlib import Path

    from conformance.validate.suppress import Config, ConfigError, check_codes, find_config, load_config

    path = None if args.no_config else Path(args.config) if args.config else find_config(Path.cwd())
    if args.config and path is not None and not path.is_file():  # path is None with --no-config
        raise ConfigError(path=args.config, reason="no such file")
    config = load_config(path) if path else Config()

    def fail(key: str, reason: str) -> ConfigError:
        """The error for a bad ``key``."""
        return ConfigError(path="--" + key, reason=reason)

    disable = config.disable | set(check_codes(_names(args.disable), fail, "disable"))
    lint = dataclasses.replace(
        config.lint,
        known_modules=config.lint.known_modules | set(_names(args.known_module)),
        cross_file=config.lint.cross_file and not args.no_cross_file,
        **{k: getattr(args, k) for k in ("brief_min_length", "brief_max_length") if getattr(args, k)},
    )
    caps = {k: getattr(args, k) for k in ("max_bytes", "max_depth", "max_aliases", "max_nodes") if getattr(args, k)}
    return dataclasses.replace(config, disable=frozenset(disable), lint=lint,
                               limits=dataclasses.replace(config.limits, **caps))


def _report(outcome, args: argparse.Namespace) -> int:
    from conformance.cli.exit_status import validation_exit_code
    from conformance.report import use_color
    from conformance.report.problems import default_format, render

    fmt = args.format or default_format(os.environ)
    color = fmt == "text" and args.output is None and use_color(args.color, sys.stdout)
    code = validation_exit_code(outcome, strict=args.strict)
    text = render(outcome, fmt, color=color, strict=args.strict, quiet=args.quiet, exit_code=code)
    if not write_report(text, args.output or None, command="validate"):
        return ExitCode.USAGE
    return code


def _list_rules() -> int:
    from conformance.validate.lint.registry import RULES

    width = max(len(code) for code in RULES)
    for rule in RULES.values():
        note = "" if rule.suppressible else " (not suppressible)"
        print(f"{rule.code:<{width}}  {rule.severity.value:<7}  {rule.summary}{note}")
    return ExitCode.OK
