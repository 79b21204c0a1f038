"""The expected-failures files are what causes.yaml and each release's installed source make of them.

examples/nekroagent/expected_failures.py writes one file per NekroAgent release; every citation in a
reason is found by name in that release's installed package (citations.py), so a line number cannot
go stale silently. The locator and the table logic are tested on files of our own; the committed
files are compared with a fresh rendering for every release installed here.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from support.nekro_venv import NEEDS_NEKRO, OLDER_RELEASES, needs_release

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "examples" / "nekroagent"


def _load(name: str):
    sys.path.insert(0, str(HERE))
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SOURCE = '''\
LIMIT = 3


class Box:
    def __init__(self, brief):
        self.size = LIMIT
        self.brief = brief.strip()

    @property
    def empty(self):
        return not self.brief


def outer(x):
    def inner(y):
        if y:
            exit(1)
        return int(y)
    return inner(x.value)
'''


def test_citations_find_places_by_name(tmp_path: Path) -> None:
    citations = _load("citations")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text(SOURCE, encoding="utf-8")
    (tmp_path / "pkg" / "t.j2").write_text("a\n<plugin name=x>\n", encoding="utf-8")
    where = {"file": "pkg/m.py"}
    assert citations.locate(tmp_path, {**where, "def": "Box"}) == "pkg/m.py:4-11"
    assert citations.locate(tmp_path, {**where, "def": "Box.empty"}) == "pkg/m.py:9-11"  # the decorator counts
    assert citations.locate(tmp_path, {**where, "def": "Box.__init__", "assign": "brief"}) == "pkg/m.py:7"
    assert citations.locate(tmp_path, {**where, "def": "outer.inner", "call": "exit"}) == "pkg/m.py:17"
    assert citations.locate(tmp_path, {**where, "def": "outer", "attr": "value"}) == "pkg/m.py:19"
    assert citations.locate(tmp_path, {**where, "def": "outer", "at": "last"}) == "pkg/m.py:19"
    assert citations.locate(tmp_path, {**where, "assign": "LIMIT"}) == "pkg/m.py:1"
    assert citations.locate(tmp_path, {"file": "pkg/t.j2", "text": "<plugin name="}) == "pkg/t.j2:2"
    for missing in ({**where, "def": "Gone"}, {**where, "def": "outer", "call": "print"}, {"file": "pkg/none.py", "def": "x"},
                    {"file": "pkg/t.j2", "text": "nowhere"}):
        with pytest.raises(citations.CitationError):
            citations.locate(tmp_path, missing)


def test_a_release_inherits_the_table_it_is_like_and_overrides_by_scenario() -> None:
    tool = _load("expected_failures")
    causes = {"versions": {
        "new": {"failures": {"A": ["s1", "s2"], "B": ["s3"]}},
        "old": {"like": "new", "passes": ["s3"], "failures": {"C": ["s2", "s4"], "A": ["s4"]}},
    }}
    assert tool.failures(causes, "new") == {"s1": ["A"], "s2": ["A"], "s3": ["B"]}
    assert tool.failures(causes, "old") == {"s1": ["A"], "s2": ["C"], "s4": ["C", "A"]}


def test_every_release_in_causes_yaml_has_a_committed_file() -> None:
    tool = _load("expected_failures")
    for version, entry in tool.load_causes()["versions"].items():
        assert (ROOT / entry["file"]).is_file(), version


def _check(version: str) -> None:
    tool = _load("expected_failures")
    assert tool.main(["--check", version]) == 0, f"write it again: python examples/nekroagent/expected_failures.py {version}"


@NEEDS_NEKRO
def test_the_2_4_0_file_is_current() -> None:
    _check("2.4.0")


@pytest.mark.parametrize("version", [pytest.param(v, marks=needs_release(v)) for v in OLDER_RELEASES])
def test_an_older_release_file_is_current(version: str) -> None:
    _check(version)
