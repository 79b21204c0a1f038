"""``pas docs``: regenerate or check the generated pages of the spec site (docs/generated/)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from conformance.documents.exit_codes import ExitCode

HELP = "Regenerate the spec site's generated pages (docs/generated/), or check that they are up to date."

_EPILOG = """\
actions:
  generate   write every generated page (and delete generated pages that no longer exist)
  check      write nothing; list the pages that are missing or out of date

The pages are made from spec/requirements.yaml, spec/semantics.yaml, spec/schemas/, the
bundled scenarios and the lint registry. OUT defaults to docs/generated/ of this checkout.

exit status: 0 done or up to date, 1 pages out of date (check), 2 unreadable sources or no OUT"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``pas docs``."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = _EPILOG
    parser.add_argument("action", choices=("generate", "check"), help="generate the pages, or check them")
    parser.add_argument("--out", metavar="OUT", type=Path, help="folder of the generated pages (default: docs/generated/)")


def default_out() -> Path | None:
    """docs/generated/ of the checkout this package runs from; None when installed without one."""
    root = Path(__file__).resolve().parents[3]
    return root / "docs" / "generated" if (root / "mkdocs.yml").is_file() else None


def run(args: argparse.Namespace) -> int:
    """Generate or check; print what happened; return the exit status."""
    from conformance.cli.main import build_parser
    from conformance.docs_gen import generate, stale_files, write_generated

    out = args.out or default_out()
    if out is None:
        print("pas docs: no checkout with mkdocs.yml found beside this package; pass --out DIR", file=sys.stderr)
        return ExitCode.USAGE
    site = generate(build_parser())
    for problem in site.problems:
        where = f"{problem.source}: " if problem.source else ""
        print(f"pas docs: {where}{problem.code}: {problem.message}", file=sys.stderr)
    if site.problems:
        print("pas docs: sources have problems; nothing written", file=sys.stderr)
        return ExitCode.USAGE
    if args.action == "check":
        stale = stale_files(out, site)
        for path in stale:
            print(f"{out / path}: out of date")
        if stale:
            print("run `python -m conformance docs generate` and commit the result", file=sys.stderr)
        return ExitCode.FAILED if stale else ExitCode.OK
    try:
        written = write_generated(out, site)
    except OSError as error:
        print(f"pas docs: cannot write {out}: {error.strerror or error}", file=sys.stderr)
        return ExitCode.USAGE
    print(f"pas docs: {len(written)} generated files up to date in {out}")
    return ExitCode.OK
