"""The generated pages: fresh, complete, and made from the files the tools read."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from conformance.cli.main import main
from conformance.docs_gen import GeneratedSite, generate, stale_files, write_generated
from conformance.docs_gen._md import cell, code, linkify
from conformance.docs_gen.scenario_pages import view_text
from conformance.docs_gen.timeline import example, observe, overview_timelines
from conformance.validate.lint.registry import RULES
from conformance.suite.scenario import load_suite
from reference_impl.spec_files import spec_dir

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "docs" / "generated"


@pytest.fixture(scope="module")
def site() -> GeneratedSite:
    """One generation of every page, shared by the tests of this module."""
    generated = generate()
    assert not generated.problems, [str(p) for p in generated.problems]
    return generated


def _tree(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8") for p in folder.rglob("*") if p.is_file()}


def test_committed_generated_pages_are_identical_to_a_fresh_generation(site, tmp_path):
    write_generated(tmp_path, site)
    fresh, committed = _tree(tmp_path), _tree(GENERATED)
    stale = sorted(p for p in fresh.keys() | committed.keys() if fresh.get(p) != committed.get(p))
    assert not stale, (
        f"docs/generated/ is stale ({', '.join(stale)}): run `python -m conformance docs generate` and commit "
        "the result (a new scenario folder also needs its page added to the nav in mkdocs.yml)"
    )


def test_every_requirement_id_is_an_anchor_on_the_specification_page(site):
    requirements = yaml.safe_load((spec_dir() / "requirements.yaml").read_text(encoding="utf-8"))["requirements"]
    page = site.files["specification.md"]
    missing = [r["id"] for r in requirements if f"{{ #{r['id']} }}" not in page]
    assert requirements and not missing


def test_every_scenario_is_listed_in_the_catalogue_and_anchored_on_its_category_page(site):
    scenarios, problems = load_suite()
    assert scenarios and not problems
    index = site.files["scenarios/index.md"]
    anchored = "".join(text for path, text in site.files.items() if path.startswith("scenarios/"))
    assert [s.id for s in scenarios if f"#{s.id})" not in index] == []
    assert [s.id for s in scenarios if f"{{ #{s.id} }}" not in anchored] == []


def _property_paths(node: Any, path: str = "") -> list[str]:
    """Every property path below a schema node, spelled as the reference's headings spell them."""
    if not isinstance(node, dict):
        return []
    found = []
    dot = f"{path}." if path else ""
    for name, child in node.get("properties", {}).items():
        found += [f"{dot}{name}", *_property_paths(child, f"{dot}{name}")]
    items = node.get("items")
    if isinstance(items, dict) and "properties" in items:
        found += _property_paths(items, f"{path}[]")
    return found


def test_schema_reference_has_a_section_for_every_property_and_definition(site):
    for schema_file in sorted((spec_dir() / "schemas").rglob("*.schema.yaml")):
        schema = yaml.safe_load(schema_file.read_text(encoding="utf-8"))
        name = schema_file.relative_to(spec_dir() / "schemas").as_posix().removesuffix(".schema.yaml")
        page = site.files["schemas/protocol.md" if "/" in name else f"schemas/{name}.md"]
        paths = _property_paths(schema)
        for definition, body in schema.get("$defs", {}).items():
            paths += [f"$defs.{definition}", *_property_paths(body, f"$defs.{definition}")]
        missing = [p for p in paths if f"`{p}`" not in page]
        assert not missing, f"{name}: no section for {missing}"


def test_schema_reference_shows_defaults_and_allowed_values(site):
    page = site.files["schemas/plugin-manifest.md"]
    allow_sleep = page[page.index("{ #allow_sleep }"):page.index("{ #sleep_brief }")]
    assert "- **Default:** `null`" in allow_sleep
    assert "- **Allowed values:**" in page and "`\"multimodal_agent\"`" in page


def test_decision_tables_page_has_a_row_for_every_rule_of_semantics(site):
    semantics = yaml.safe_load((spec_dir() / "semantics.yaml").read_text(encoding="utf-8"))
    page = site.files["decision-tables.md"]
    eligibility = page[page.index("{ #eligibility }"):page.index("{ #visibility }")]
    rows = [line for line in eligibility.splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(rows) == len(semantics["eligibility"])
    for method, spec in semantics["methods"].items():
        section = page[page.index(f"{{ #{method} }}"):]
        for rule in spec["outcomes"]:
            assert f"**`{rule['outcome']}`**" in section


def test_lint_rules_page_links_every_registered_code_to_its_page(site):
    page = site.files["lint-rules.md"]
    assert [code for code in RULES if f"(../rules/{code}.md)" not in page] == []


def test_overview_timeline_is_what_the_reference_engine_observes():
    runs = observe(*example())
    weather = [(r.views["weather"].state.value, r.views["weather"].rounds_left, r.views["weather"].hint) for r in runs]
    assert weather == [("sleeping", None, False), ("active", 3, False), ("active", 2, False), ("active", 1, True),
                       ("sleeping", None, False), ("sleeping", None, False)]
    assert runs[0].calls == ("activate_plugin('weather', rounds=3) → activated",)
    pictures = overview_timelines()
    assert "3 runs left" in pictures["timeline.svg"] and "1 left · hint" in pictures["timeline.svg"]
    assert "剩 3 轮" in pictures["timeline.zh.svg"]


def test_writing_generated_pages_deletes_pages_that_are_no_longer_generated(site, tmp_path):
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "removed-schema.md").write_text("old\n", encoding="utf-8")
    write_generated(tmp_path, site)
    assert not (tmp_path / "schemas" / "removed-schema.md").exists()
    assert stale_files(tmp_path, site) == []


def test_pas_docs_check_fails_on_a_stale_folder_and_passes_after_generate(site, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("conformance.docs_gen.generate", lambda: site)  # the command, not generation, is tested here
    (tmp_path / "specification.md").write_text("edited by hand\n", encoding="utf-8")
    assert main(["docs", "check", "--out", str(tmp_path)]) == 1
    assert "specification.md: out of date" in capsys.readouterr().out
    assert main(["docs", "generate", "--out", str(tmp_path)]) == 0
    assert main(["docs", "check", "--out", str(tmp_path)]) == 0


def test_requirement_ids_inside_code_spans_are_not_linked():
    text = linkify("See ACT-ARG-1, not `ACT-ARG-1` or ACT-NOPE-9.", frozenset({"ACT-ARG-1"}))
    assert text == "See [ACT-ARG-1](specification.md#ACT-ARG-1){ .pas-id }, not `ACT-ARG-1` or ACT-NOPE-9."


def test_markdown_helpers_keep_backticks_and_pipes_from_breaking_the_page():
    assert code("a`b") == "`` a`b ``"
    assert cell("x | y\nz") == "x \\| y z"


def test_expected_views_read_as_short_phrases():
    assert view_text({"state": "active", "rounds_left": 1, "hint": True}) == "**active** · 1 left · hint"
    assert view_text("absent") == "*absent*"


def test_pas_docs_generate_writes_nothing_when_a_source_has_problems(tmp_path, capsys, monkeypatch):
    from reference_impl.problems import Problem, SourceLocation

    broken = GeneratedSite(problems=(Problem(code="yaml-syntax", message="the YAML does not parse",
                                             source=SourceLocation(path="spec/requirements.yaml", line=3)),))
    monkeypatch.setattr("conformance.docs_gen.generate", lambda: broken)
    assert main(["docs", "generate", "--out", str(tmp_path)]) == 2
    assert "spec/requirements.yaml:3: yaml-syntax" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
