"""The docs cannot drift: a page per code whose examples really do (and do not) report it, and show what
``pas validate`` prints on them; the guide's rules table is the registry; every option documented."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
import yaml

from conformance.cli.commands import validate as validate_command
from conformance.cli.commands.docs import validate_output
from conformance.cli.main import main
from conformance.docs_gen.hand_pages import TABLE_REGION
from conformance.docs_gen.i18n import chinese, language
from conformance.docs_gen.lint_pages import rules_table
from conformance.docs_gen.regions import regions
from conformance.docs_gen.rule_examples import REGION, CannotShow, page_example, session
from conformance.validate.check import check_paths
from conformance.validate.lint.registry import RULES
from reference_impl.spec_files import spec_dir

ROOT = Path(__file__).resolve().parents[3]
RULES_DIR = ROOT / "docs" / "rules"
GUIDE = ROOT / "docs" / "guides" / "validating.md"
_BLOCK = re.compile(r'```(?:yaml|json) title="([^"]+)"\n(.*?)\n```', re.DOTALL)
SECTIONS = ("## What it reports", "## Why it matters", "## Example", "### Bad", "### Good", "## How to suppress")


def test_every_code_has_a_page_and_every_page_a_code():
    assert {p.stem for p in RULES_DIR.glob("*.md") if not p.name.endswith(".zh.md")} == set(RULES)


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_page_has_every_section_and_states_the_severity(code):
    text = (RULES_DIR / f"{code}.md").read_text(encoding="utf-8")
    assert text.startswith(f"# `{code}`\n")
    assert all(section in text for section in SECTIONS)
    assert f"**Severity:** {RULES[code].severity.value}" in text


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_page_states_the_registrys_family_and_whether_it_can_be_suppressed_in_both_languages(code):
    rule = RULES[code]
    english = (RULES_DIR / f"{code}.md").read_text(encoding="utf-8")
    chinese_page = (RULES_DIR / f"{code}.zh.md").read_text(encoding="utf-8")
    assert (f"**Severity:** {rule.severity.value} · **Family:** {rule.family} · "
            f"**Suppressible:** {'yes' if rule.suppressible else 'no'}\n") in english
    assert (f"**严重级别：** {rule.severity.value} · **类别：** {rule.family} · "
            f"**可抑制：** {'是' if rule.suppressible else '否'}\n") in chinese_page


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_page_shows_what_pas_validate_prints_on_its_bad_example_in_both_languages(code):
    english = (RULES_DIR / f"{code}.md").read_text(encoding="utf-8")
    example = page_example(code, english)
    assert example is not None, f"docs/rules/{code}.md has no bad example (titled yaml or json blocks under ### Bad)"
    try:
        printed = session(example, validate_output)
    except CannotShow as reason:
        pytest.skip(f"the bad example of {code} cannot be made here: {reason}")
    for page in (f"{code}.md", f"{code}.zh.md"):
        shown = regions((RULES_DIR / page).read_text(encoding="utf-8")).get(REGION)
        assert shown is not None, f"docs/rules/{page} has no generated region {REGION!r} after its bad example"
        assert shown.splitlines() == printed.splitlines(), (
            f"docs/rules/{page} shows output pas validate no longer prints: run `pas docs generate`")


def test_the_guides_rules_table_is_the_registry_in_both_languages():
    english = regions(GUIDE.read_text(encoding="utf-8"))[TABLE_REGION]
    assert english.splitlines() == rules_table(RULES.values()).splitlines()
    assert len(english.splitlines()) == 2 + len(RULES)
    with language(chinese(spec_dir())) as zh:
        expected = rules_table(RULES.values())
    assert zh.missing == set(), f"rules without a Chinese summary in vocabulary.zh.yaml: {sorted(zh.missing)}"
    shown = regions(GUIDE.with_name("validating.zh.md").read_text(encoding="utf-8"))[TABLE_REGION]
    assert shown.splitlines() == expected.splitlines()


def test_list_rules_lists_the_codes_of_the_guides_table_in_its_order(capsys):
    assert main(["validate", "--list-rules"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines() if line.strip()]
    in_table = re.findall(r"^\| \[`([a-z0-9-]+)`\]", regions(GUIDE.read_text(encoding="utf-8"))[TABLE_REGION], re.M)
    assert listed == in_table == list(RULES)


def _examples(text: str, heading: str) -> list[tuple[str, str]]:
    start = text.index(f"### {heading}")
    end = text.index("### Good" if heading == "Bad" else "## How to suppress", start)
    return _BLOCK.findall(text[start:end])


def _codes(tmp_path: Path, files: list[tuple[str, str]]) -> list[str]:
    paths = []
    for name, body in files:
        (tmp_path / name).write_text(body + "\n", encoding="utf-8")
        paths.append(str(tmp_path / name))
    return [p.code for p in check_paths(paths).problems]


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_page_examples_report_the_code_when_bad_and_not_when_good(tmp_path, code):
    text = (RULES_DIR / f"{code}.md").read_text(encoding="utf-8")
    bad, good = _examples(text, "Bad"), _examples(text, "Good")
    if bad:
        (tmp_path / "bad").mkdir()
        assert code in _codes(tmp_path / "bad", bad)
    if good:
        (tmp_path / "good").mkdir()
        assert code not in _codes(tmp_path / "good", good)


def test_the_guide_documents_every_option_of_pas_validate():
    parser = argparse.ArgumentParser()
    validate_command.configure(parser)
    options = {s for action in parser._actions for s in action.option_strings} - {"-h", "--help"}
    guide = GUIDE.read_text(encoding="utf-8")
    assert {option for option in options if f"`{option}" not in guide} == set()


def test_the_guide_covers_pre_commit_github_actions_annotations_suppression_and_the_modeline():
    guide = GUIDE.read_text(encoding="utf-8")
    for needle in ("id: pas-validate", "GITHUB_ACTIONS=true", "upload-sarif", "# pas: disable=",
                   "# pas: disable-file=", ".pas.yaml", "# yaml-language-server: $schema=", "NO_COLOR"):
        assert needle in guide


def test_the_pre_commit_hook_runs_pas_validate_on_yaml_and_json_in_one_process():
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert (hook["id"], hook["entry"], hook["language"], hook["require_serial"]) == ("pas-validate", "pas validate", "python", True)
    pattern = re.compile(hook["files"])
    assert all(pattern.search(name) for name in ("a/manifest.yaml", "m.yml", "host.json"))
    assert not any(pattern.search(name) for name in ("README.md", "setup.py", "yaml.txt"))


def test_every_code_the_loader_can_report_is_registered():
    source = (ROOT / "conformance" / "documents" / "loader.py").read_text(encoding="utf-8")
    emitted = set(re.findall(r'_problem\([^,]+,\s*"([a-z0-9-]+)"', source)) | set(re.findall(r'code="([a-z0-9-]+)"', source))
    load_mapping_only = {"multiple-documents"}  # pas validate reads every document; only config loading uses it
    assert emitted and emitted - set(RULES) - load_mapping_only == set()
