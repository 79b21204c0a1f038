"""The Python API page (docs/api.md and docs/api.zh.md): every public name rendered, and an example that runs.

The page renders each public name with a ``::: package.Name`` line (mkdocstrings reads the
docstrings from the checkout); its "Run the suite from Python" example is run here as written.
The Chinese twin keeps the rendered API text in English: the same ``:::`` lines in the same
order, and the same example code under Chinese prose.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

import conformance
import reference_impl

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = ("api.md", "api.zh.md")


def directives(page: str) -> list[str]:
    """The objects a page renders, in order: each ``::: dotted.path`` line."""
    return re.findall(r"^::: (\S+)[ \t]*$", (DOCS / page).read_text(encoding="utf-8"), re.M)


def run_the_suite_example(page: str) -> str:
    """The first Python block of the section "Run the suite from Python" (anchor ``run-the-suite-from-python``)."""
    text = (DOCS / page).read_text(encoding="utf-8")
    section = text.split("{ #run-the-suite-from-python }", 1)[1].split("\n## ", 1)[0]
    return re.search(r"^```python\n(.*?)^```$", section, re.M | re.S).group(1)


def test_the_page_renders_every_public_name_once_and_nothing_else():
    public = [f"{package.__name__}.{name}" for package in (reference_impl, conformance)
              for name in package.__all__ if name != "__version__"]
    rendered = directives("api.md")
    assert sorted(set(rendered)) == sorted(rendered), "a name is rendered twice"
    missing, extra = sorted(set(public) - set(rendered)), sorted(set(rendered) - set(public))
    assert (missing, extra) == ([], []), (f"docs/api.md must render each public name with a `::: package.Name` line: "
                                          f"add {missing}, remove {extra}")


def test_the_chinese_page_renders_the_same_names_in_the_same_order():
    assert directives("api.zh.md") == directives("api.md")


def test_the_chinese_example_is_the_same_code():
    assert run_the_suite_example("api.zh.md") == run_the_suite_example("api.md")


@pytest.mark.slow
def test_the_run_the_suite_example_runs_as_written(tmp_path):
    done = subprocess.run([sys.executable, "-c", run_the_suite_example("api.md")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    found = re.fullmatch(r"pas-reference: (\d+) passed, (\d+) skipped, of (\d+) scenarios", lines[0])
    assert found and int(found[1]) + int(found[2]) == int(found[3]), lines
    assert lines[1:] == ["ok"]


def _griffe_extension():
    pytest.importorskip("griffe", reason="the docs extra is not installed (pip install '.[docs]')")
    spec = importlib.util.spec_from_file_location("griffe_roles", DOCS / "hooks" / "griffe_roles.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_sphinx_roles_in_docstrings_become_inline_code():
    roles = _griffe_extension()
    assert roles.plain_roles("see :class:`~conformance.adapters.implementation.Scheduler` and :mod:`reference_impl`") == (
        "see `Scheduler` and `reference_impl`")


def test_an_enum_gets_a_table_of_its_members_and_values():
    import griffe

    roles = _griffe_extension()
    model = griffe.load("reference_impl.model", search_paths=[str(ROOT)])
    assert roles.member_table(model["Strategy"]).splitlines() == [
        "| member | value |", "|---|---|",
        "| `AUTO` | `'auto'` |", "| `ALLOW_SLEEP` | `'allow_sleep'` |", "| `FORBID_SLEEP` | `'forbid_sleep'` |"]
    assert roles.member_table(model["Manifest"]) == ""


@pytest.mark.parametrize("language", ["", "zh/"])
def test_the_built_page_has_an_anchor_for_every_public_name(built_site, language):
    html = (built_site / f"{language}api" / "index.html").read_text(encoding="utf-8")
    missing = [name for name in directives("api.md") if f'id="{name}"' not in html]
    assert missing == []
    assert "start-failed" in html and "run_suite(" in html  # FailureKind's member table, a rendered signature
