"""``pas extract FRAMEWORK ... --out DIR``: PAS manifests from NekroAgent plugins, MCP servers and Agent Skills."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from conformance.documents.exit_codes import ExitCode

HELP = "Write PAS manifests for NekroAgent plugins, MCP servers' tools or Agent Skills folders."

_EPILOG = """\
frameworks:
  nekro PATH... --out DIR      NekroAgent plugins: each NekroPlugin(...) call and its
                               mount_sandbox_method / mount_prompt_inject_method decorators
                               become DIR/<module_name>.yaml. PATH is a plugin's entry
                               file or folder (its whole package is read, in the order
                               Python imports it) or a folder of plugins. Plugin files are
                               parsed with Python's ast module: never imported, never run
  mcp PATH... --out DIR        MCP servers: each saved tools/list result (a .json file, or
                               a folder of them) becomes one manifest, each tool a method
  mcp --out DIR -- CMD ARGS    the same, asking a stdio MCP server started as CMD ARGS
                               (needs the mcp extra: the official MCP Python SDK)
  skills PATH... --out DIR     Agent Skills: each folder holding a SKILL.md (PATH is a
                               skill or a folder searched for skills) becomes one manifest:
                               the description is the sleeping brief, the body the full block

Every problem is reported where it comes from: a .py line, a JSON file's line and pointer,
the server's command and the tool's name, a SKILL.md line. Check the result with
pas validate DIR; measure it with pas budget --plugins DIR.

exit status: as pas validate: 0 no errors (warnings allowed unless --strict), 1 errors (a
manifest not valid and not written, a NekroPlugin(...) call NekroAgent rejects, a skill the
specification rejects, nothing found) or warnings with --strict, 2 usage or I/O errors,
Python syntax errors, an MCP server that does not start, exits, does not answer within
--timeout or does not speak MCP (its process group is killed)"""

# Problems that mean an input could not be had at all: exit 2.
_FATAL = frozenset({"syntax-error", "unreadable", "path-not-found", "mcp-server-failed", "not-a-directory",
                    "special-file"})
_INPUT = {"nekro": "file(s)", "mcp": "server listing(s)", "skills": "SKILL.md file(s)"}
_NOTHING = {"nekro": "no NekroPlugin(...) call found", "mcp": "no MCP tool listing read",
            "skills": "no skill found (a folder holding SKILL.md)"}


class _CommandParser(argparse.ArgumentParser):
    """A parser that keeps what follows ``--`` as a command to run (``pas extract mcp -- CMD ARGS``)."""

    takes_command = False

    def parse_known_args(self, args=None, namespace=None):
        """Parse the arguments before ``--``; the words after it are ``namespace.command``."""
        words = list(sys.argv[1:] if args is None else args)
        command: list[str] = []
        if self.takes_command and "--" in words:
            at = words.index("--")
            words, command = words[:at], words[at + 1:]
        namespace, extras = super().parse_known_args(words, namespace)
        if self.takes_command:
            namespace.command = command
        return namespace, extras


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, metavar="DIR", help="folder to write <module_name>.yaml files into")
    parser.add_argument("-f", "--format", choices=("text", "github"),
                        help="problem format (default: github when GITHUB_ACTIONS=true, else text)")
    parser.add_argument("-q", "--quiet", action="store_true", help="print problems only, not the files written")
    parser.add_argument("--strict", action="store_true", help="warnings fail the run too (exit 1), as in pas validate")


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``pas extract``."""
    from conformance.tools.extract.mcp_live import DEFAULT_TIMEOUT

    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = _EPILOG
    frameworks = parser.add_subparsers(dest="framework", metavar="FRAMEWORK", parser_class=_CommandParser)
    nekro = frameworks.add_parser("nekro", help="NekroAgent plugins (NekroPlugin and its mount_* decorators)",
                                  description="Write a PAS manifest for every NekroPlugin(...) found in PATH.")
    nekro.add_argument("paths", nargs="+", metavar="PATH",
                       help="a plugin's entry file or folder (the whole package is read), or a folder of plugins")
    _common(nekro)
    mcp = frameworks.add_parser("mcp", help="MCP servers: saved tools/list results, or a stdio server after --",
                                description="Write one PAS manifest per MCP server: from saved tools/list results "
                                "(PATH), or from the stdio server started as the command after --.",
                                usage="pas extract mcp [PATH ...] --out DIR [--timeout S] [--save FILE] [-- CMD ARGS]")
    mcp.takes_command = True
    mcp.add_argument("paths", nargs="*", metavar="PATH", help="a saved tools/list result (.json) or a folder of them")
    mcp.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="S",
                     help=f"seconds the server has to start and answer (default: {DEFAULT_TIMEOUT:g})")
    mcp.add_argument("--save", metavar="FILE", help="also save the server's listing as JSON (read back as a PATH)")
    _common(mcp)
    skills = frameworks.add_parser("skills", help="Agent Skills folders (SKILL.md)",
                                   description="Write a PAS manifest for every Agent Skill (a folder holding SKILL.md).")
    skills.add_argument("paths", nargs="+", metavar="PATH", help="a skill's folder, its SKILL.md, or a folder of skills")
    _common(skills)


def _position(problem) -> tuple[str, int, int]:
    source = problem.source
    return (source.path, source.line or 0, source.column or 0) if source else ("", 0, 0)


def _print_problems(problems: list, fmt: str) -> None:
    from conformance.report.problems import github_line

    for problem in sorted(problems, key=_position):
        print(github_line(problem) if fmt == "github" else problem, file=sys.stderr if fmt == "text" else sys.stdout)


def _nekro(args: argparse.Namespace) -> tuple[list, list, int, int]:
    from conformance.tools.extract.manifests import draft_of
    from conformance.tools.extract.nekro import extract
    from conformance.tools.extract.sources import plugin_files, read_sources

    files, problems = plugin_files(args.paths)
    sources, found = read_sources(files)
    plugins, more = extract(sources)
    return [draft_of(p) for p in plugins if not p.rejected], [*problems, *found, *more], len(files), len(plugins)


def _mcp_live(args: argparse.Namespace) -> tuple[list, list]:
    from conformance.tools.extract.mcp_live import ServerFailed, ask_server, listing_of
    from conformance.tools.extract.mcp_tools import draft_of
    from reference_impl.problems import Problem, SourceLocation

    try:
        saved = ask_server(args.command, timeout=args.timeout)
    except ServerFailed as failed:
        return [], [Problem(code="mcp-server-failed", message=failed.reason,
                            source=SourceLocation(path=" ".join(failed.command)))]
    if args.save:
        try:
            Path(args.save).write_text(json.dumps(saved, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        except OSError as error:
            raise _Usage(f"cannot write {args.save}: {error.strerror or error}") from None
    draft, problems = draft_of(listing_of(saved, args.command))
    return [draft] if draft else [], problems


def _mcp(args: argparse.Namespace) -> tuple[list, list, int, int]:
    from conformance.tools.extract.mcp_dumps import dump_files, read_dump
    from conformance.tools.extract.mcp_tools import draft_of

    if not args.paths and not args.command:
        raise _Usage("give saved tools/list results (PATH), or a server to start after -- (pas extract mcp --out DIR "
                     "-- CMD ARGS)")
    if args.save and not args.command:
        raise _Usage("--save writes a live server's listing: give the server's command after --")
    files, problems = dump_files(args.paths) if args.paths else ([], [])
    drafts = []
    for path in files:
        listing, found = read_dump(path)
        draft, more = draft_of(listing) if listing is not None else (None, [])
        problems += [*found, *more]
        drafts += [draft] if draft else []
    if args.command:
        live, found = _mcp_live(args)
        drafts, problems = drafts + live, problems + found
    return drafts, problems, len(files) + bool(args.command), len(drafts)


def _skills(args: argparse.Namespace) -> tuple[list, list, int, int]:
    from conformance.tools.extract.skills import extract_skills

    drafts, problems, count = extract_skills(args.paths)
    return drafts, problems, count, count


class _Usage(Exception):
    """A combination of arguments that makes no sense: exit 2 with the message."""


def _summary(framework: str, inputs: int, plugins: int, written: Sequence[Path], problems: list, *, strict: bool) -> int:
    from conformance.cli.exit_status import problems_exit_code
    from reference_impl.problems import Severity

    fatal = [p for p in problems if p.code in _FATAL]
    counted = [p for p in problems if p.severity is not Severity.INFO]
    line = f"pas extract: {inputs} {_INPUT[framework]}, {plugins} plugin(s), {len(written)} manifest(s) written"
    if counted:
        line += f"; {len(counted)} problem(s) above"
    if any(p.code == "unresolved-field" for p in problems):
        line += " (fields built at run time are left out, never guessed)"
    print(line, file=sys.stderr)
    if fatal:
        return ExitCode.USAGE
    if not plugins:
        print(f"pas extract: {_NOTHING[framework]}", file=sys.stderr)
        return ExitCode.FAILED
    return problems_exit_code(problems, strict=strict)


def _extract(args: argparse.Namespace) -> int:
    from conformance.report.problems import default_format
    from conformance.tools.extract.drafts import plan, write

    drafts, problems, inputs, plugins = {"nekro": _nekro, "mcp": _mcp, "skills": _skills}[args.framework](args)
    outputs, found = plan(drafts)
    problems += found
    try:
        written = write(outputs, Path(args.out))
    except OSError as error:
        print(f"pas extract: cannot write to {args.out}: {error.strerror or error}", file=sys.stderr)
        return ExitCode.USAGE
    _print_problems(problems, args.format or default_format(os.environ))
    if not args.quiet:
        for path, output in zip(written, outputs):
            print(f"{path}  <- {output.source}")
    return _summary(args.framework, inputs, plugins, written, problems, strict=args.strict)


def run(args: argparse.Namespace) -> int:
    """Extract and write; return the exit code (never a traceback)."""
    if args.framework not in ("nekro", "mcp", "skills"):
        print("pas extract: name a framework: nekro, mcp or skills (see pas extract --help)", file=sys.stderr)
        return ExitCode.USAGE
    try:
        return _extract(args)
    except _Usage as usage:
        print(f"pas extract {args.framework}: {usage}", file=sys.stderr)
        return ExitCode.USAGE
    except Exception as error:  # noqa: BLE001 - the promise is: no traceback, exit 2
        print(f"pas extract: internal error: {type(error).__name__}: {error} (a bug in pas; please report it)",
              file=sys.stderr)
        return ExitCode.USAGE
