"""The generated pages: fresh, complete, and made from the files the tools read."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from support.bundled import bundled_suite

from conformance.cli.main import build_parser, main
from conformance.docs_gen import GeneratedSite, generate, stale_files, write_generated
from conformance.docs_gen._md import cell, code, linkify
from conformance.docs_gen.scenario_pages import view_text
from conformance.docs_gen.timeline import example, observe, overview_timelines
from conformance.validate.lint.registry import RULES
from reference_impl.spec_files import spec_dir

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "docs" / "generated"


@pytest.fixture(scope="module")
def site() -> GeneratedSite:
    """One generation of every page, shared by the tests of this module."""
    generated = generate(build_parser())
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


def test_every_requirement_on_the_specification_page_says_the_spec_version_that_introduced_it(site):
    requirements = yaml.safe_load((spec_dir() / "requirements.yaml").read_text(encoding="utf-8"))["requirements"]
    for name, since in (("specification.md", "since spec"), ("specification.zh.md", "始于规范版本")):
        sections = site.files[name].split("\n#### ")[1:]
        shown = {s.split(" ", 1)[0]: re.search(rf"· {since} ([0-9.]+)\n", s) for s in sections}
        assert {r["id"]: r["introduced_in"] for r in requirements} == {
            rid: m.group(1) if m else None for rid, m in shown.items() if rid in {r["id"] for r in requirements}}, name


def test_every_scenario_is_listed_in_the_catalogue_and_anchored_on_its_category_page(site):
    scenarios, problems = bundled_suite()
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
    monkeypatch.setattr("conformance.docs_gen.generate", lambda parser, **sources: site)  # the command, not generation, is tested here
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
    monkeypatch.setattr("conformance.docs_gen.generate", lambda parser, **sources: broken)
    assert main(["docs", "generate", "--out", str(tmp_path)]) == 2
    assert "spec/requirements.yaml:3: yaml-syntax" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- the Chinese pages


def test_every_requirement_has_a_chinese_translation(site):
    # Whoever adds or renames a requirement in spec/requirements.yaml adds its Chinese title, text and
    # rationale to spec/requirements.zh.yaml; until then the Chinese page shows it in English.
    requirements = yaml.safe_load((spec_dir() / "requirements.yaml").read_text(encoding="utf-8"))["requirements"]
    translated = yaml.safe_load((spec_dir() / "requirements.zh.yaml").read_text(encoding="utf-8"))["requirements"]
    missing = [r["id"] for r in requirements if r["id"] not in translated]
    assert missing == [], f"spec/requirements.zh.yaml has no Chinese text for {missing}: add title, text (and rationale)"
    incomplete = [r["id"] for r in requirements if bool(r.get("rationale")) != bool(translated[r["id"]].get("rationale"))
                  or not translated[r["id"]].get("title") or not translated[r["id"]].get("text")]
    assert incomplete == [], f"translations missing a title, text or rationale the English has (or one it lacks): {incomplete}"
    orphans = sorted(set(translated) - {r["id"] for r in requirements})
    assert orphans == [], f"spec/requirements.zh.yaml translates requirements that no longer exist: {orphans}"


def test_every_fixed_string_of_the_generated_pages_has_a_chinese_translation(site):
    strings = sorted(m for m in site.missing_zh if not re.fullmatch(r"(ACT|TXT|HOST|DISC)-[A-Z]+-\d+", m))
    assert strings == [], (
        f"conformance/docs_gen/vocabulary.zh.yaml has no entry for {strings}: add the English string as the key")


def test_every_generated_page_has_a_chinese_twin_with_the_same_anchors(site):
    pages = [p for p in site.files if p.endswith(".md") and not p.endswith(".zh.md")]
    assert pages and [p for p in pages if p.replace(".md", ".zh.md") not in site.files] == []
    anchors = re.compile(r"\{ #([^ }]+) \}")
    for page in pages:
        english, chinese = site.files[page], site.files[page.replace(".md", ".zh.md")]
        assert anchors.findall(chinese) == anchors.findall(english), page
        assert chinese != english, f"{page}: the Chinese twin is not translated at all"


def test_a_requirement_missing_from_the_chinese_file_falls_back_to_english_and_is_reported(tmp_path):
    from conformance.docs_gen.i18n import chinese, language
    from conformance.docs_gen.spec_pages import specification_page

    (tmp_path / "requirements.zh.yaml").write_text("requirements: {}\n", encoding="utf-8")
    doc = {"profiles": {"activation": {"title": "Activation", "description": "d"}},
           "requirements": [{"id": "ACT-ELIG-1", "level": "MUST", "profile": "activation", "title": "Protected",
                             "text": "An implementation MUST ...", "source": "seed 000 §x",
                             "introduced_in": "1.0"}]}
    with language(chinese(tmp_path)) as zh:
        page = specification_page(doc, {}, "1.0.0", {})
    assert "Protected" in page and "ACT-ELIG-1" in zh.missing and "profile activation" in zh.missing


# ---------------------------------------------------------------- CLI reference, protocol table, phone picture


def test_cli_reference_documents_every_command_and_option_of_the_parser(site):
    import argparse

    from conformance.cli.main import build_parser
    from conformance.docs_gen.cli_pages import _subcommands
    from conformance.documents.exit_codes import ExitCode

    page = site.files["cli.md"]

    def check(prefix: str, parser: argparse.ArgumentParser) -> None:
        assert f"## `pas {prefix}` {{ #{prefix.replace(' ', '-')} }}" in page
        for action in parser._actions:
            for option in action.option_strings:
                if option not in ("-h", "--help") and action.help != argparse.SUPPRESS:
                    assert f"`{option}" in page, f"pas {prefix} {option}"
        for name, sub in _subcommands(parser).items():
            check(f"{prefix} {name}", sub)

    commands = _subcommands(build_parser())
    assert {"run", "validate", "schema", "docs", "budget"} <= set(commands)
    for name, sub in commands.items():
        check(name, sub)
    assert page.count("{ #exit-status }") == 1 and page.count("| Status |") == 1  # one exit-code table
    assert [c.name for c in ExitCode if f"| `{c.value}` | `{c.name}` |" not in page] == []
    assert "| `--timeout SECONDS` | `5.0` |" in page  # defaults come from the parser


def test_protocol_table_has_a_row_for_every_wire_command_with_the_ids_it_serves(site):
    from conformance.adapters.protocol import MESSAGES

    page = site.files["protocol-requirements.md"]
    assert [cmd for cmd in MESSAGES if f"| `{cmd}` |" not in page] == []
    run_row = next(line for line in page.splitlines() if line.startswith("| `run` |"))
    assert "ACT-COUNT-1" in run_row and "ACT-STATE-3" in run_row
    activate_row = next(line for line in page.splitlines() if line.startswith("| `activate` |"))
    assert "ACT-ACTIVATE-4" in activate_row and "HOST-" not in activate_row


def test_the_narrow_timeline_fits_a_phone_screen_at_full_size():
    pictures = overview_timelines()
    for name in ("timeline-narrow.svg", "timeline-narrow.zh.svg"):
        width = int(re.search(r'<svg [^>]*width="(\d+)"', pictures[name]).group(1))
        assert width <= 343, f"{name} is {width} px wide: a 375 px screen leaves about 343 px for the article"
    assert "3 runs left" in pictures["timeline-narrow.svg"] and "剩 3 轮" in pictures["timeline-narrow.zh.svg"]


def test_hand_written_pages_with_generated_regions_are_up_to_date():
    from conformance.cli.commands.docs import validate_output
    from conformance.docs_gen.hand_pages import hand_pages
    from conformance.docs_gen.i18n import chinese

    docs = ROOT / "docs"
    pages = hand_pages(docs, RULES.values(), validate_output, chinese(spec_dir()))
    assert {"guides/validating.md", "guides/validating.zh.md", "rules/schema.md", "rules/schema.zh.md"} <= set(pages)
    stale = sorted(path for path, text in pages.items() if (docs / path).read_text(encoding="utf-8") != text)
    assert stale == [], f"generated regions out of date in {stale}: run `python -m conformance docs generate`"


def test_regions_are_filled_by_name_and_left_out_of_what_a_translator_compares():
    from conformance.docs_gen.regions import block, fill, regions, without_regions

    one, two = block("one", "old\nlines"), block("two", "kept")
    page = f"# Title\n\nBefore.\n\n{one}\n\nBetween.\n\n{two}\n"
    filled = fill(page, {"one": "new\n", "three": "ignored"})
    assert regions(filled) == {"one": "new\n", "two": "kept\n"}
    assert filled.replace("new\n", "old\nlines\n") == page
    assert without_regions(filled) == without_regions(page) != page
    assert "Before." in without_regions(page) and "kept" not in without_regions(page)


def test_pas_docs_finds_the_clone_it_is_run_in_when_installed_from_it(tmp_path, monkeypatch):
    # docs/publishing.md installs '.[docs]' (not editable), then runs `pas docs generate` in the clone.
    from conformance.cli.commands import docs

    installed = tmp_path / "site-packages" / "conformance" / "cli" / "commands" / "docs.py"
    monkeypatch.setattr(docs, "__file__", str(installed))
    monkeypatch.chdir(ROOT)
    assert docs.default_out() == ROOT / "docs" / "generated"
    monkeypatch.chdir(tmp_path)
    assert docs.default_out() is None
