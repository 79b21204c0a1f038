"""The CLI reference: every ``pas`` command with its arguments and defaults, read from the argument parser.

The parser is ``conformance.cli.main.build_parser()``, the one ``pas`` itself runs, so the page
follows every change to a command; exit statuses come from the one table in
``conformance.documents.exit_codes``.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from conformance.docs_gen._md import code, header, link, one_line, table
from conformance.docs_gen.i18n import t

_EXIT_MEANINGS = {
    "OK": "done: everything checked passed (or there was nothing to check, where a command says so)",
    "FAILED": "something checked did not pass: a scenario, a manifest, a requirement, a stale page",
    "USAGE": "bad arguments or unreadable inputs, or nothing to test",
    "SIGHUP": "stopped by SIGHUP (128 + 1)",
    "SIGINT": "stopped by SIGINT, Ctrl-C (128 + 2)",
    "SIGTERM": "stopped by SIGTERM (128 + 15)",
}


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps subparsers only here
        if isinstance(action, argparse._SubParsersAction):
            return dict(sorted(action.choices.items()))
    return {}


def _default(action: argparse.Action) -> str:
    if action.default in (None, argparse.SUPPRESS) or action.option_strings == []:
        return ""
    if isinstance(action, (argparse._StoreTrueAction, argparse._StoreFalseAction)):
        return code(str(action.default).lower())
    if isinstance(action, (argparse._AppendAction, argparse._CountAction)) and not action.default:
        return ""
    if isinstance(action.default, (list, tuple)):
        return ", ".join(code(str(v)) for v in action.default) if action.default else ""
    return code(str(action.default))


def _joined(metavar: str | tuple[str, ...]) -> str:
    return " ".join(metavar) if isinstance(metavar, tuple) else metavar


def _argument(action: argparse.Action) -> str:
    if not action.option_strings:
        return code(_joined(action.metavar or action.dest))
    metavar = ""
    if action.nargs != 0:
        metavar = " " + _joined(action.metavar or action.dest.upper())  # choices are listed in the Meaning column
    return ", ".join(code(option + metavar) for option in action.option_strings)


def _help(action: argparse.Action, prog: str) -> str:
    text = one_line(action.help or "") if action.help != argparse.SUPPRESS else ""
    if "%(" in text:
        text = text % {**vars(action), "prog": "pas"}
    if isinstance(action, argparse._SubParsersAction):
        return t("One of:") + " " + ", ".join(link(code(c), "#" + f"{prog} {c}".split(" ", 1)[1].replace(" ", "-"))
                                             for c in action.choices)
    if action.choices:
        text += (" " if text else "") + t("One of:") + " " + ", ".join(code(str(c)) for c in action.choices)
    if action.nargs in ("*", "+") and not action.option_strings:
        text += t(" (one or more)") if action.nargs == "+" else t(" (any number)")
    elif action.nargs == "?" and not action.option_strings:
        text += t(" (optional)")
    if isinstance(action, argparse._AppendAction) and "repeatable" not in text.lower():
        text += t(" Repeatable.")
    return text


def _arguments_table(parser: argparse.ArgumentParser) -> list[str]:
    rows = [[_argument(a), _default(a), _help(a, parser.prog)] for a in parser._actions
            if not isinstance(a, argparse._HelpAction) and a.help != argparse.SUPPRESS]
    return table([t("Argument"), t("Default"), t("Meaning")], rows) if rows else [t("No arguments."), ""]


def _command(name: str, parser: argparse.ArgumentParser, level: int = 2) -> list[str]:
    usage = " ".join(parser.format_usage().removeprefix("usage: ").split())
    anchor = name.replace(" ", "-")
    lines = [f"{'#' * level} `pas {name}` {{ #{anchor} }}", "", one_line(parser.description or ""), ""]
    lines += ["```text", usage, "```", ""]
    lines += _arguments_table(parser)
    if parser.epilog:
        lines += [f'??? note "{t("More from")} `pas {name} --help`"', ""]
        lines += ["    ```text", *(f"    {line}".rstrip() for line in parser.epilog.strip("\n").splitlines()), "    ```", ""]
    for sub_name, sub in _subcommands(parser).items():
        lines += _command(f"{name} {sub_name}", sub, level + 1)
    return lines


def _exit_codes(codes: Iterable[tuple[str, int]]) -> list[str]:
    """The exit-status table; KeyError for a status without a meaning here (add it to _EXIT_MEANINGS)."""
    rows = [[code(str(number)), code(name), t(_EXIT_MEANINGS[name])] for name, number in codes]
    return table([t("Status"), t("Name"), t("Meaning")], rows, align="rll")


def cli_page(parser: argparse.ArgumentParser, exit_codes: Iterable[tuple[str, int]]) -> str:
    """The CLI reference page: an index of commands, the exit statuses, then one section per command."""
    commands = _subcommands(parser)
    lines = header(t("Command-line reference"), "conformance/cli/ (the argument parser)", intro=t(
        "Every `pas` command, its arguments and their defaults, read from the argument parser that "
        "`pas` itself runs ({count} commands). `pas COMMAND --help` prints the same. Argument "
        "descriptions are quoted from the parser, in English.").format(count=len(commands)))
    help_of = {name: one_line(sub.description or "") for name, sub in commands.items()}
    lines += table([t("Command"), t("What it does")], [[link(code(f"pas {n}"), f"#{n}"), help_of[n]] for n in commands])
    lines += [t("## Exit status { #exit-status }"), "", t(
        "Every command exits with one of these statuses; a command's `--help` says what \"failed\" "
        "means for it. When several things happen in one run, the most serious status wins."), ""]
    lines += _exit_codes(exit_codes)
    lines += [t("## Global options { #global-options }"), ""]
    lines += table([t("Argument"), t("Meaning")], [[code("--version"), t("print the version of pas and exit")],
                                                  [code("-h") + ", " + code("--help"), t("print help and exit")]])
    for name, sub in commands.items():
        lines += _command(name, sub)
    return "\n".join(lines).rstrip() + "\n"
