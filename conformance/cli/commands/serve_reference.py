"""``pas serve-reference``: the reference scheduler as a stdio implementation (protocol v1)."""

from __future__ import annotations

import argparse

from conformance.cli.commands._args import positive

HELP = "Serve the reference scheduler over the PAS stdio protocol (JSON lines on stdin/stdout)."
PIPELINE_DEPTH = 64  # conformance.adapters.serve.PIPELINE_DEPTH, not imported here: --help stays light


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the command's options."""
    parser.add_argument(
        "--no-text",
        action="store_true",
        help="claim only the activation profile and leave the reference text out of observations",
    )
    parser.add_argument(
        "--disclosure", default="", metavar="OPTIONS",
        help="the disclosure options to declare and run under, e.g. 'state_scope=instance,order=catalogue' "
             "(default: the recommended values; see the disclosure guide)",
    )
    parser.add_argument(
        "--pipeline-depth", type=positive(int), default=PIPELINE_DEPTH, metavar="N",
        help=f"how many requests the runner may send ahead of their answers, announced in hello "
             f"(default: {PIPELINE_DEPTH}; 1: strictly in turn)",
    )


def run(args: argparse.Namespace) -> int:
    """Serve until ``bye`` or end of input; exit code 0 (2 for options that cannot be declared)."""
    import os
    import sys

    from conformance.adapters.serve import serve
    from conformance.documents.exit_codes import ExitCode
    from reference_impl.disclosure_options import Options
    from reference_impl.errors import MalformedDocument

    try:
        options = Options.from_text(args.disclosure)
    except MalformedDocument as error:
        print(f"pas serve-reference: --disclosure: {error}", file=sys.stderr)
        return ExitCode.USAGE
    code = serve(sys.stdin.buffer, sys.stdout.buffer, text=not args.no_text, pipeline_depth=args.pipeline_depth,
                 disclosure=options)
    # Answered bye (or the input ended): leave now. The interpreter's tidying of every module it imported
    # takes 15-35 ms here, which a runner waits out after its bye; serve() flushed every answer.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
