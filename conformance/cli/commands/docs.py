"""``pas docs``: regenerate or check the generated pages of the spec site (docs/generated/)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from conformance.documents.exit_codes import ExitCode

HELP = ("Regenerate the spec site's generated pages (docs/generated/) and the generated regions of hand-written "
        "pages, or check that they are up to date.")

_EPILOG = """\
actions:
  generate   write every generated page (and delete generated pages that no longer exist)
  check      write nothing; list the pages that are missing or out of date

The pages are made from spec/requirements.yaml, spec/semantics.yaml, spec/schemas/, the
bundled scenarios and the lint registry. OUT defaults to docs/generated/ of the checkout pas
runs from, or else of the current folder when it is one (mkdocs.yml beside docs/).
Hand-written pages of the checkout hold generated regions too (between <!-- generated: NAME ... -->
and <!-- /generated -->): each lint rule page the output of pas validate on its bad example,
docs/guides/validating.md the table of rules.

exit status: 0 done or up to date, 1 pages out of date (check), 2 unreadable sources or no OUT"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``pas docs``."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = _EPILOG
    parser.add_argument("action", choices=("generate", "check"), help="generate the pages, or check them")
    parser.add_argument("--out", metavar="OUT", type=Path, help="folder of the generated pages (default: docs/generated/)")


def default_out() -> Path | None:
    """docs/generated/ of the checkout this package runs from, else of the current folder; None outside a checkout.

    An install that is not editable (``pip install '.[docs]'`` in a clone, as docs/publishing.md says)
    runs from site-packages, so the clone is found as the folder ``pas docs`` is run in.
    """
    for root in (Path(__file__).resolve().parents[3], Path.cwd()):
        if (root / "mkdocs.yml").is_file() and (root / "docs").is_dir():
            return root / "docs" / "generated"
    return None


def validate_output(paths: Sequence[str]) -> str:
    """What ``pas validate PATHS`` prints in a terminal without colour, with no config file: the rule pages' examples."""
    import contextlib
    import io

    from conformance.cli.main import main

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        main(["validate", "--no-config", "--format", "text", "--color", "never", *paths])
    return printed.getvalue()


def run(args: argparse.Namespace) -> int:
    """Generate or check; print what happened; return the exit status."""
    from conformance.cli.main import build_parser
    from conformance.docs_gen import generate, stale_files, stale_pages, write_generated, write_pages

    out = args.out or default_out()
    if out is None:
        print("pas docs: no checkout with mkdocs.yml found beside this package; pass --out DIR", file=sys.stderr)
        return ExitCode.USAGE
    checkout = default_out()
    docs_dir = checkout.parent if checkout is not None else None
    site = generate(build_parser(), docs_dir=docs_dir, validate=validate_output)
    for problem in site.problems:
        where = f"{problem.source}: " if problem.source else ""
        print(f"pas docs: {where}{problem.code}: {problem.message}", file=sys.stderr)
    if site.problems:
        print("pas docs: sources have problems; nothing written", file=sys.stderr)
        return ExitCode.USAGE
    if args.action == "check":
        stale = [out / path for path in stale_files(out, site)]
        stale += [docs_dir / path for path in stale_pages(docs_dir, site)] if docs_dir is not None else []
        for path in stale:
            print(f"{path}: out of date")
        if stale:
            print("run `python -m conformance docs generate` and commit the result", file=sys.stderr)
        return ExitCode.FAILED if stale else ExitCode.OK
    try:
        written = write_generated(out, site)
        pages = write_pages(docs_dir, site) if docs_dir is not None else ()
    except OSError as error:
        print(f"pas docs: cannot write {error.filename or out}: {error.strerror or error}", file=sys.stderr)
        return ExitCode.USAGE
    print(f"pas docs: {len(written)} generated files up to date in {out}; "
          f"{len(pages)} hand-written page(s) with generated regions rewritten")
    return ExitCode.OK
