"""The Python disclosure hosts' expected-failures files: every reason links a divergence entry that exists and
cites lines that exist in the installed package.

A reason starts with `examples/<host>/README.md#<anchor>:`; the README must have a heading with that
anchor (GitHub's: lower case, punctuation dropped, spaces to hyphens). Every `path.py:N` or
`path.py:N-M` in it must name a file of the venv's site-packages that has line M (checked for each
venv installed here; the anchors need none).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from support.bigtool_venv import DEFAULT_PYTHON, WORKING_PYTHON
from support.maf_venv import MAF_PYTHON

ROOT = Path(__file__).resolve().parents[3]
CITATION = re.compile(r"([A-Za-z_][\w/]*\.py):(\d+)(?:-(\d+))?")


FILES = {
    "examples/agent-framework/expected-failures.yaml": (MAF_PYTHON, "scripts/install-agent-framework.sh"),
    "examples/langgraph-bigtool/expected-failures-default.yaml": (DEFAULT_PYTHON, "scripts/install-bigtool.sh default"),
    "examples/langgraph-bigtool/expected-failures-working.yaml": (WORKING_PYTHON, "scripts/install-bigtool.sh working"),
}


def reasons(path: str) -> dict[str, str]:
    import yaml

    return yaml.safe_load((ROOT / path).read_text(encoding="utf-8")) or {}


def anchors(readme: Path) -> set[str]:
    """GitHub's anchors of a Markdown file's headings."""
    headings = re.findall(r"^#+ (.+)$", readme.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-") for heading in headings}


@pytest.mark.parametrize("path", sorted(FILES))
def test_every_reason_links_a_divergence_entry_of_the_hosts_readme(path: str) -> None:
    host = Path(path).parent
    for scenario, reason in reasons(path).items():
        link = re.match(r"(examples/[\w.-]+/README\.md)#([\w-]+): ", reason)
        assert link, f"{path}: {scenario}'s reason does not start with examples/<host>/README.md#<anchor>: "
        assert Path(link[1]).parent == host, f"{path}: {scenario} links another host's README"
        assert link[2] in anchors(ROOT / link[1]), f"{path}: {scenario} links #{link[2]}, which {link[1]} lacks"


@pytest.mark.parametrize("path", sorted(FILES))
def test_every_cited_line_exists_in_the_installed_package(path: str) -> None:
    python, install = FILES[path]
    if not python.exists():
        pytest.skip(f"no venv at {python}: run {install}")
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    cited = [(scenario, m) for scenario, reason in reasons(path).items() for m in CITATION.finditer(reason)]
    assert cited, f"{path} cites no source line"
    for scenario, match in cited:
        source = site / match[1]
        assert source.is_file(), f"{path}: {scenario} cites {match[0]}, but {source} does not exist"
        last = int(match[3] or match[2])
        lines = source.read_text(encoding="utf-8").count("\n")
        assert int(match[2]) <= last <= lines, f"{path}: {scenario} cites {match[0]}; {match[1]} has {lines} lines"
