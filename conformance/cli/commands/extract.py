"""``pas extract nekro PATH... --out DIR``: PAS manifests from NekroAgent plugin sources, read statically."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HELP = "Write PAS manifests for another framework's plugins by reading their source (never running it)."

_EPILOG = """\
frameworks:
  nekro PATH... --out DIR   NekroAgent plugins: each NekroPlugin(...) call and its
                            mount_sandbox_method / mount_prompt_inject_method decorators
                            become DIR/<module_name>.yaml; PATH is a .py file or a folder

Plugin files are parsed with Python's ast module: never imported, never run. A field built
at run time (an f-string with placeholders, a call, a name that is not a module-level
constant) is left out with a warning; nothing is guessed. Check the result with
pas validate DIR.

exit status: 0 every plugin extracted completely, 1 written with warnings (fields left
out, methods not linked) or some manifest not valid and not written, 2 usage, I/O or
Python syntax errors"""

_SKIPPED_DIRS = frozenset({"__pycache__", "node_modules", "site-packages", ".git", ".venv", "venv"})
_FATAL = frozenset({"syntax-error", "unreadable", "path-not-found"})


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``pas extract``."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = _EPILOG
    frameworks = parser.add_subparsers(dest="framework", metavar="FRAMEWORK")
    nekro = frameworks.add_parser("nekro", help="NekroAgent plugins (NekroPlugin and its mount_* decorators)",
                                  description="Write a PAS manifest for every NekroPlugin(...) found in PATH.")
    nekro.add_argument("paths", nargs="+", metavar="PATH", help="a plugin .py file or a folder searched for *.py")
    nekro.add_argument("--out", required=True, metavar="DIR", help="folder to write <module_name>.yaml files into")
    nekro.add_argument("-q", "--quiet", action="store_true", help="print problems only, not the files written")


def _python_files(paths: list[str]):  # -> (list[Path], list[Problem])
    from reference_impl.problems import Problem, SourceLocation

    files, problems = [], []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for root, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS and not d.startswith("."))
                files += [Path(root) / n for n in sorted(names) if n.endswith(".py")]
        elif path.is_file():
            files.append(path)
        else:
            problems.append(Problem(code="path-not-found", message="no such file or folder", source=SourceLocation(path=raw)))
    return files, problems


def _read(files):  # -> (list[(path, text)], list[Problem])
    from reference_impl.problems import Problem, SourceLocation

    sources, problems = [], []
    for file in files:
        try:
            sources.append((file.as_posix(), file.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError) as error:
            why = getattr(error, "strerror", None) or str(error)
            problems.append(Problem(code="unreadable", message=f"cannot read it: {why}", source=SourceLocation(path=str(file))))
    return sources, problems


def _nekro(args: argparse.Namespace) -> int:
    from conformance.tools.extract.manifests import plan_outputs, write_outputs
    from conformance.tools.extract.nekro import extract

    files, problems = _python_files(args.paths)
    sources, found = _read(files)
    problems += found
    plugins, found = extract(sources)
    problems += found
    outputs, found = plan_outputs(plugins)
    problems += found
    try:
        written = write_outputs(outputs, Path(args.out))
    except OSError as error:
        print(f"pas extract: cannot write to {args.out}: {error.strerror or error}", file=sys.stderr)
        return 2
    for problem in sorted(problems, key=_position):
        print(problem, file=sys.stderr)
    if not args.quiet:
        for path, output in zip(written, outputs):
            print(f"{path}  <- {output.source}")
    return _summary(len(files), len(plugins), written, problems)


def _position(problem) -> tuple[str, int, int]:
    source = problem.source
    return (source.path, source.line or 0, source.column or 0) if source else ("", 0, 0)


def _summary(files: int, plugins: int, written: list[Path], problems: list) -> int:
    from reference_impl.problems import Severity

    fatal = [p for p in problems if p.code in _FATAL]
    counted = [p for p in problems if p.severity is not Severity.INFO]
    line = f"pas extract: {files} file(s), {plugins} plugin(s), {len(written)} manifest(s) written"
    if counted:
        line += f"; {len(counted)} problem(s) above"
    if any(p.code == "unresolved-field" for p in problems):
        line += " (fields built at run time are left out, never guessed)"
    print(line, file=sys.stderr)
    if not plugins and not fatal:
        print("pas extract: no NekroPlugin(...) call found", file=sys.stderr)
        return 1
    return 2 if fatal else 1 if counted else 0


def run(args: argparse.Namespace) -> int:
    """Extract and write; return the exit code (never a traceback)."""
    if args.framework != "nekro":
        print("pas extract: name a framework: nekro (see pas extract --help)", file=sys.stderr)
        return 2
    try:
        return _nekro(args)
    except Exception as error:  # noqa: BLE001 - the promise is: no traceback, exit 2
        print(f"pas extract: internal error: {type(error).__name__}: {error} (a bug in pas; please report it)",
              file=sys.stderr)
        return 2
