"""``pas lsp``: a language server that shows ``pas validate``'s problems in an editor, with quick fixes."""

from __future__ import annotations

import argparse
import sys

from conformance.documents.exit_codes import ExitCode

HELP = "Run a language server (stdio) that shows pas validate's problems as you type, with quick fixes."

_EPILOG = """\
The editor starts 'pas lsp' and talks to it over standard input and output (the Language Server
Protocol). Each open YAML or JSON file is checked as 'pas validate FOLDER' checks it, FOLDER
being the editor's workspace folder (or the file's own folder): the schema, every rule, the
rules across files (dependency cycles, duplicate module names, strategies), suppressions and
the folder's .pas.yaml. Quick fixes: allow_sleep: true for a brief that cannot take effect,
removing a protected plugin's brief, quoting a value YAML 1.1 reads differently.

Needs pygls: pip install pygls (or the package's 'lsp' extra). Set-up for VS Code, Neovim and
Helix: docs/guides/editors.md.

exit status: 0 after the editor's shutdown and exit, 2 pygls not installed"""

INSTALL_HINT = "pas lsp needs pygls: pip install pygls (or the package's 'lsp' extra)"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``pas lsp`` (none but --stdio, which editors pass by habit)."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = _EPILOG
    parser.add_argument("--stdio", action="store_true", help="talk over standard input and output (the default)")


def run(args: argparse.Namespace) -> int:
    """Serve until the editor says exit; 2 when pygls is missing."""
    try:
        from conformance.cli.language_server import build_server
    except ImportError as error:
        if (error.name or "").split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        print(f"pas lsp: {INSTALL_HINT}", file=sys.stderr)
        return ExitCode.USAGE
    build_server().start_io()
    return ExitCode.OK
