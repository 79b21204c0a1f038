"""The ``pas`` command: parse arguments, call one function, render, return an exit code.

Each subcommand lives in ``conformance/cli/commands/<name>.py`` with ``HELP`` (one line),
``configure(parser)`` (adds its arguments) and ``run(args) -> int`` (the exit code); the
file name is the command name (underscores become dashes). Heavy imports stay inside
``run`` so that ``pas --help`` and every command start fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

def _command_modules() -> list[str]:
    """Module names under conformance/cli/commands, each one subcommand (``serve_reference`` -> ``serve-reference``)."""
    import pkgutil

    from conformance.cli import commands

    return sorted(info.name for info in pkgutil.iter_modules(commands.__path__) if not info.name.startswith("_"))

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    from reference_impl import __version__

    parser = argparse.ArgumentParser(
        prog="pas",
        description="PAS: Plugin Activation Scheduling spec, reference implementation and conformance suite.",
    )
    parser.add_argument("--version", action="version", version=f"pas {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in _command_modules():
        try:
            module = importlib.import_module(f"conformance.cli.commands.{module_name}")
        except Exception as error:  # one broken command must not take every other one down
            print(f"pas: command {module_name!r} is unavailable: {error}", file=sys.stderr)
            continue
        name = module_name.replace("_", "-")
        sub = subparsers.add_parser(name, help=module.HELP, description=module.HELP)
        module.configure(sub)
        sub.set_defaults(handler=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pas`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "handler", None) is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        print("pas: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
