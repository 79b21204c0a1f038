"""``pas serve-reference``: the reference scheduler as a stdio implementation (protocol v1)."""

from __future__ import annotations

import argparse

HELP = "Serve the reference scheduler over the PAS stdio protocol (JSON lines on stdin/stdout)."


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the command's options."""
    parser.add_argument(
        "--no-text",
        action="store_true",
        help="claim only the activation profile and leave the reference text out of observations",
    )


def run(args: argparse.Namespace) -> int:
    """Serve until ``bye`` or end of input; exit code 0."""
    import sys

    from conformance.adapters.serve import serve

    return serve(sys.stdin.buffer, sys.stdout.buffer, text=not args.no_text)
