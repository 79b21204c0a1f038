#!/usr/bin/env python3
"""Write NekroAgent's expected-failures files, one per release, from causes.yaml and its installed source.

    python examples/nekroagent/expected_failures.py            # write the file of every installed release
    python examples/nekroagent/expected_failures.py --check    # exit 1 if a committed file differs

A reason is ``<link>: <text>``, where every ``{citation}`` of the text becomes ``file:line`` in
*that* release's installed package (see citations.py): a citation that no longer exists fails.
A release whose venv is not installed (scripts/install-nekroagent.sh VERSION) is skipped, with a
message. Run it with PAS's Python (it needs PyYAML); it reads NekroAgent's files, never imports them.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CAUSES = HERE / "causes.yaml"
sys.path.insert(0, str(HERE))

from citations import CitationError, locate  # noqa: E402 - this folder is put on the path just above

HEADER = """\
# Expected failures of NekroAgent {version} (examples/nekroagent/adapter.py) against the PAS suite,
# profiles activation + text. Written by `python examples/nekroagent/expected_failures.py` from
# causes.yaml: do not edit, change causes.yaml and write again. Each reason starts with the entry
# that explains it (a divergence on docs/divergences.md, or a step the adapter cannot express:
# "Adapter limits" in README.md) and cites NekroAgent {version}'s installed source (site-packages/).
# A scenario is listed with what makes it fail first (`pas run` stops at its first failing step).
"""


def load_causes(path: Path = CAUSES) -> dict[str, Any]:
    """causes.yaml as a mapping."""
    import yaml

    return yaml.safe_load(path.read_text(encoding="utf-8"))


def venv_of(version: str) -> Path:
    """The venv scripts/install-nekroagent.sh makes for ``version`` (it may not exist)."""
    done = subprocess.run(["sh", str(ROOT / "scripts" / "install-nekroagent.sh"), "--venv", version],
                          capture_output=True, text=True, check=True)
    return Path(done.stdout.strip())


def site_packages(venv: Path) -> Path | None:
    """The venv's site-packages holding nekro_agent, or None when NekroAgent is not installed there."""
    found = sorted(venv.glob("lib/python*/site-packages/nekro_agent"))
    return found[0].parent if found else None


def failures(causes: Mapping[str, Any], version: str) -> dict[str, list[str]]:
    """Scenario id -> its cause keys in ``version``, following ``like`` chains."""
    entry = causes["versions"][version]
    table = failures(causes, entry["like"]) if "like" in entry else {}
    mine: dict[str, list[str]] = {}
    for key, scenarios in (entry.get("failures") or {}).items():
        for sid in scenarios:
            mine.setdefault(sid, []).append(key)
    table.update(mine)
    for sid in entry.get("passes") or []:
        table.pop(sid, None)
    return table


def reason(causes: Mapping[str, Any], keys: list[str], where: Path) -> str:
    """The reason of a scenario failing for ``keys``, citations resolved in ``where``; raises CitationError."""
    parts = []
    for key in keys:
        cause = causes["causes"][key]
        cited = {name: locate(where, cite) for name, cite in causes["cites"].items() if "{" + name + "}" in cause["text"]}
        parts.append(f"{cause['link']}: {' '.join(cause['text'].split()).format(**cited)}")
    return " Also ".join(parts)


def render(causes: Mapping[str, Any], version: str, where: Path) -> str:
    """The expected-failures file of ``version``, citing the source under ``where``."""
    rows = sorted(failures(causes, version).items())
    body = "".join(f"{sid}: {json.dumps(reason(causes, keys, where), ensure_ascii=False)}\n" for sid, keys in rows)
    return HEADER.format(version=version) + body


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check compare) the file of every installed release; exit 1 on a difference."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with the committed files instead of writing")
    parser.add_argument("versions", nargs="*", help="releases to do (default: every release in causes.yaml)")
    args = parser.parse_args(argv)
    causes = load_causes()
    status = 0
    for version in args.versions or list(causes["versions"]):
        where = site_packages(venv_of(version))
        if where is None:
            print(f"{version}: not installed (scripts/install-nekroagent.sh {version}); skipped", file=sys.stderr)
            continue
        target = ROOT / causes["versions"][version]["file"]
        try:
            text = render(causes, version, where)
        except CitationError as error:
            print(f"{version}: a citation is not in the installed source: {error}", file=sys.stderr)
            status = 1
            continue
        if args.check:
            same = target.is_file() and target.read_text(encoding="utf-8") == text
            print(f"{version}: {target.relative_to(ROOT)} {'up to date' if same else 'differs: write it again'}",
                  file=sys.stderr)
            status |= 0 if same else 1
        else:
            target.write_text(text, encoding="utf-8")
            print(f"{version}: wrote {target.relative_to(ROOT)}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
