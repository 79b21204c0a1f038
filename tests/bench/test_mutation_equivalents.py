"""Every explained surviving mutant (bench/mutation-equivalents/) still names real code, and says why.

An entry whose line no longer exists would silently stop matching, and its mutant would count as a
plain survivor (or, worse, a stale reason would stay in the file for the next reader): the lists are
checked against today's reference_impl.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "bench" / "mutation-equivalents"
KINDS = {"equivalent", "unobservable", "unstated"}
FILES = sorted(FOLDER.glob("*.yaml"))


def test_one_file_per_module_of_the_reference():
    modules = {p.stem for p in (ROOT / "reference_impl").glob("*.py")}  # __init__ too: its mutants are run
    assert {p.stem for p in FILES} <= modules
    assert FILES, "no explained survivors at all: the folder moved?"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_entry_names_a_line_of_its_module_and_a_reason(path: Path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["module"] == f"reference_impl/{path.stem}.py"
    source_lines = {line.strip() for line in (ROOT / data["module"]).read_text(encoding="utf-8").splitlines()}
    for number, entry in enumerate(data.get("mutants") or ()):
        where = f"{path.name} entry {number} ({entry.get('code')!r})"
        assert set(entry) <= {"line", "operator", "code", "kind", "why", "occurrence_on_line"}, where
        assert entry["operator"].startswith("core/"), where
        assert entry["code"].strip() in source_lines, f"{where}: the line is no longer in {data['module']}"
        assert entry["kind"] in KINDS, where
        assert len(entry["why"].split()) >= 5, f"{where}: say why in a sentence"
