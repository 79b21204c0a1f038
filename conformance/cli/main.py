"""The ``pas`` command: parse arguments, call one function, render, return an exit code.

Each subcommand lives in ``conformance/cli/commands/<name>.py`` with ``HELP`` (one line),
``configure(parser)`` (adds its arguments) and ``run(args) -> int`` (the exit code); the
file name is the command name (underscores become dashes). Heavy imports stay inside
``run`` so that ``pas --help`` and every command start fast.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Sequence

from conformance.documents.exit_codes import ExitCode


def _command_modules() -> list[str]:
    """Module names under conformance/cli/commands, each one subcommand (``serve_reference`` -> ``serve-reference``)."""
    import pkgutil

    from conformance.cli import commands

    return sorted(info.name for info in pkgutil.iter_modules(commands.__path__) if not info.name.startswith("_"))


def _named_command(argv: Sequence[str]) -> str | None:
    """The module of the command ``argv`` begins with (``serve-reference`` -> ``serve_reference``), if it names one."""
    if not argv or not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", argv[0]):
        return None
    import importlib.util

    module_name = argv[0].replace("-", "_")
    try:
        found = importlib.util.find_spec(f"conformance.cli.commands.{module_name}")
    except (ImportError, ValueError):
        return None
    return module_name if found is not None else None


def build_parser(only: str | None = None, *, arguments: bool = True) -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered, or only the command module ``only``.

    ``pas COMMAND ...`` needs only its own command: the others are not imported (start-up time,
    e.g. of ``pas serve-reference``, which an implementation's runner waits for). With
    ``arguments`` False the commands are registered by name and help line only, without their
    arguments: enough for ``pas --help`` and ``pas --version``, whose start-up then imports none of
    the heavy modules some commands' arguments take their choices and defaults from.
    """
    from reference_impl import __version__

    parser = argparse.ArgumentParser(
        prog="pas",
        description="PAS: Plugin Activation Scheduling spec, reference implementation and conformance suite.",
    )
    parser.add_argument("--version", action="version", version=f"pas {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in _command_modules() if only is None else [only]:
        try:
            module = importlib.import_module(f"conformance.cli.commands.{module_name}")
        except Exception as error:  # noqa: BLE001 - one broken command must not take every other one down
            print(f"pas: command {module_name!r} is unavailable: {error}", file=sys.stderr)
            continue
        name = module_name.replace("_", "-")
        sub = subparsers.add_parser(name, help=module.HELP, description=module.HELP)
        if arguments:
            module.configure(sub)
        sub.set_defaults(handler=module.run)
    return parser


def _command_names() -> list[str]:
    """Every command's name, as typed (``serve-reference``)."""
    return [module.replace("_", "-") for module in _command_modules()]


def _names_a_command(argv: Sequence[str]) -> bool:
    """Whether any word of ``argv`` is a command's name."""
    commands = set(_command_names())
    return any(word in commands for word in argv)


def _unknown_command(parser: argparse.ArgumentParser, argv: Sequence[str]) -> str | None:
    """``pas: unknown command 'rnu'; did you mean 'run'?`` when the first word names no command."""
    first = next((word for word in argv if not word.startswith("-")), None)
    if first is None or argv[0].startswith("-"):
        return None
    commands = _command_names()
    if first in commands:
        return None
    from conformance.documents.suggest import did_you_mean

    return f"unknown command {first!r}{did_you_mean(first, commands)} (commands: {', '.join(commands)})"


def _subcommand_parser(parser: argparse.ArgumentParser, command: str | None) -> argparse.ArgumentParser:
    """The parser of ``pas COMMAND`` (``parser`` itself when there is no such command)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            return action.choices[command]
    return parser


def _unrecognized(parser: argparse.ArgumentParser, extra: Sequence[str]) -> list[str]:
    """One line per word ``parser`` did not take, with the closest option of that command for a misspelt one.

    argparse leaves words a subcommand does not know to the top-level parser, which printed the
    top-level usage and no suggestion (``pas validate --stirct``).
    """
    from conformance.documents.suggest import closest

    # Compared without the dashes, which every option shares (else '--foo' is "like" '--color').
    options = {option.lstrip("-"): option for action in parser._actions for option in action.option_strings}
    lines = []
    for word in extra:
        if word.startswith("-") and len(word) > 1:
            match = closest(word.split("=", 1)[0].lstrip("-"), options)
            lines.append(f"unknown option {word!r}" + (f"; did you mean '{options[match]}'?" if match else ""))
        else:
            lines.append(f"unexpected argument {word!r}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pas`` console script; returns an :class:`~conformance.documents.exit_codes.ExitCode`."""
    argv = list(sys.argv[1:] if argv is None else argv)
    named = _named_command(argv)
    # A command anywhere in argv needs its arguments; without one only the top level's options are parsed.
    parser = build_parser(only=named, arguments=named is not None or _names_a_command(argv))
    unknown = None if named is not None else _unknown_command(parser, argv)
    if unknown is not None:
        parser.print_usage(sys.stderr)
        print(f"pas: error: {unknown}", file=sys.stderr)
        return ExitCode.USAGE
    args, extra = parser.parse_known_args(argv)
    if extra:
        command = _subcommand_parser(parser, getattr(args, "command", None))
        command.print_usage(sys.stderr)
        for line in _unrecognized(command, extra):
            print(f"{command.prog}: error: {line} (see {command.prog} --help)", file=sys.stderr)
        return ExitCode.USAGE
    if getattr(args, "handler", None) is None:
        parser.print_help()
        return ExitCode.USAGE
    try:
        return args.handler(args)
    except KeyboardInterrupt as error:
        print("pas: interrupted", file=sys.stderr)
        return ExitCode.for_signal(getattr(error, "signum", 2))
    except BrokenPipeError:
        return ExitCode.OK


if __name__ == "__main__":
    sys.exit(main())
