"""The Python disclosure hosts' expected-failures files: every reason links a divergence entry that exists and
cites lines that exist in the installed package.

A reason starts with `examples/<host>/README.md#<anchor>:`; the README must have a heading with that
anchor (GitHub's: lower case, punctuation dropped, spaces to hyphens). Every `path.py:N` or
`path.py:N-M` in it must name a file of the venv's site-packages that has line M (checked for each
venv installed here; the anchors need none).
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[3]
CITATION = re.compile(r"([A-Za-z_][\w/]*\.py):(\d+)(?:-(\d+))?")


def _venv_module(folder: str, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_disc_{name}", ROOT / "tests" / "examples" / folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_maf = _venv_module("agent-framework", "maf_venv")
_bigtool = _venv_module("langgraph-bigtool", "bigtool_venv")
FILES = {
    "examples/agent-framework/expected-failures.yaml": (_maf.MAF_PYTHON, "scripts/install-agent-framework.sh"),
    "examples/langgraph-bigtool/expected-failures-default.yaml": (_bigtool.DEFAULT_PYTHON, "scripts/install-bigtool.sh default"),
    "examples/langgraph-bigtool/expected-failures-working.yaml": (_bigtool.WORKING_PYTHON, "scripts/install-bigtool.sh working"),
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
