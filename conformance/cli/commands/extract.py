"""``pas extract nekro PATH... --out DIR``: PAS manifests from NekroAgent plugin sources, read statically."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from conformance.documents.exit_codes import ExitCode

HELP = "Write PAS manifests for another framework's plugins by reading their source (never running it)."

_EPILOG = """\
frameworks:
  nekro PATH... --out DIR   NekroAgent plugins: each NekroPlugin(...) call and its
                            mount_sandbox_method / mount_prompt_inject_method decorators
                            become DIR/<module_name>.yaml. PATH is a plugin's entry
                            file or folder (its whole package is read, in the order
                            Python imports it) or a folder of plugins

Plugin files are parsed with Python's ast module: never imported, never run. A field built
at run time (an f-string with placeholders, a call, a name that is not a module-level
constant) is left out with a warning; nothing is guessed. A method is what NekroAgent
shows the model: the function's name and its whole docstring (__doc__.strip()); a method
without a docstring is left out with a warning, as NekroAgent skips it. Every problem is
reported at the .py file and line it comes from. Check the result with pas validate DIR.

exit status: as pas validate: 0 no errors (warnings, such as a field left out or a method
not linked, allowed unless --strict), 1 errors (a manifest not valid and not written, a
NekroPlugin(...) call NekroAgent rejects, no plugin found) or warnings with --strict,
2 usage, I/O or Python syntax errors"""

_FATAL = frozenset({"syntax-error", "unreadable", "path-not-found"})


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``pas extract``."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = _EPILOG
    frameworks = parser.add_subparsers(dest="framework", metavar="FRAMEWORK")
    nekro = frameworks.add_parser("nekro", help="NekroAgent plugins (NekroPlugin and its mount_* decorators)",
                                  description="Write a PAS manifest for every NekroPlugin(...) found in PATH.")
    nekro.add_argument("paths", nargs="+", metavar="PATH",
                       help="a plugin's entry file or folder (the whole package is read), or a folder of plugins")
    nekro.add_argument("--out", required=True, metavar="DIR", help="folder to write <module_name>.yaml files into")
    nekro.add_argument("-f", "--format", choices=("text", "github"),
                       help="problem format (default: github when GITHUB_ACTIONS=true, else text)")
    nekro.add_argument("-q", "--quiet", action="store_true", help="print problems only, not the files written")
    nekro.add_argument("--strict", action="store_true", help="warnings fail the run too (exit 1), as in pas validate")


def _print_problems(problems: list, fmt: str) -> None:
    from conformance.report.problems import github_line

    for problem in sorted(problems, key=_position):
        print(github_line(problem) if fmt == "github" else problem, file=sys.stderr if fmt == "text" else sys.stdout)


def _nekro(args: argparse.Namespace) -> int:
    from conformance.report.problems import default_format
    from conformance.tools.extract.manifests import plan_outputs, write_outputs
    from conformance.tools.extract.nekro import extract
    from conformance.tools.extract.sources import plugin_files, read_sources

    files, problems = plugin_files(args.paths)
    sources, found = read_sources(files)
    problems += found
    plugins, found = extract(sources)
    problems += found
    outputs, found = plan_outputs(plugins)
    problems += found
    try:
        written = write_outputs(outputs, Path(args.out))
    except OSError as error:
        print(f"pas extract: cannot write to {args.out}: {error.strerror or error}", file=sys.stderr)
        return ExitCode.USAGE
    _print_problems(problems, args.format or default_format(os.environ))
    if not args.quiet:
        for path, output in zip(written, outputs):
            print(f"{path}  <- {output.source}")
    return _summary(len(files), len(plugins), written, problems, strict=args.strict)


def _position(problem) -> tuple[str, int, int]:
    source = problem.source
    return (source.path, source.line or 0, source.column or 0) if source else ("", 0, 0)


def _summary(files: int, plugins: int, written: list[Path], problems: list, *, strict: bool = False) -> int:
    from reference_impl.problems import Severity

    fatal = [p for p in problems if p.code in _FATAL]
    counted = [p for p in problems if p.severity is not Severity.INFO]
    failing = [p for p in counted if strict or p.severity is Severity.ERROR]
    line = f"pas extract: {files} file(s), {plugins} plugin(s), {len(written)} manifest(s) written"
    if counted:
        line += f"; {len(counted)} problem(s) above"
    if any(p.code == "unresolved-field" for p in problems):
        line += " (fields built at run time are left out, never guessed)"
    print(line, file=sys.stderr)
    if not plugins and not fatal:
        print("pas extract: no NekroPlugin(...) call found", file=sys.stderr)
        return ExitCode.FAILED
    return ExitCode.USAGE if fatal else ExitCode.FAILED if failing else ExitCode.OK


def run(args: argparse.Namespace) -> int:
    """Extract and write; return the exit code (never a traceback)."""
    if args.framework != "nekro":
        print("pas extract: name a framework: nekro (see pas extract --help)", file=sys.stderr)
        return ExitCode.USAGE
    try:
        return _nekro(args)
    except Exception as error:  # noqa: BLE001 - the promise is: no traceback, exit 2
        print(f"pas extract: internal error: {type(error).__name__}: {error} (a bug in pas; please report it)",
              file=sys.stderr)
        return ExitCode.USAGE
