"""``pas extract skills``: SKILL.md folders as manifests, the specification's rules as errors, client differences as warnings."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from conformance.cli.main import main

ROOT = Path(__file__).resolve().parents[4]
EXAMPLES = ROOT / "conformance" / "examples" / "skills"


def _skill(folder: Path, name: str, front: str, body: str = "Do the thing, step by step.\n") -> Path:
    skill = folder / name
    skill.mkdir(parents=True, exist_ok=True)
    (skill / "SKILL.md").write_text(f"---\n{front}---\n\n{body}", encoding="utf-8")
    return skill


def _extract(tmp_path: Path, *paths: Path, strict: bool = False) -> tuple[int, Path]:
    out = tmp_path / "out"
    return main(["extract", "skills", *map(str, paths), "--out", str(out), *(["--strict"] if strict else [])]), out


def test_the_example_skills_become_sleeping_plugins_whose_full_block_is_the_body(tmp_path, capsys):
    code, out = _extract(tmp_path, EXAMPLES)
    assert code == 0
    names = sorted(p.name for p in out.glob("*.yaml"))
    assert names == ["commit_message.yaml", "incident_report.yaml", "release_notes.yaml", "sql_review.yaml"]
    doc = yaml.safe_load((out / "release_notes.yaml").read_text(encoding="utf-8"))
    text = (EXAMPLES / "release-notes" / "SKILL.md").read_text(encoding="utf-8")
    front, body = text.split("---\n")[1], text.split("---\n", 2)[2]
    assert doc["name"] == "release-notes" and doc["module_name"] == "release_notes"
    assert doc["sleep_brief"] == yaml.safe_load(front)["description"]
    assert doc["description"] == f"{doc['sleep_brief']}\n\nAgent Skill release-notes, from {EXAMPLES.as_posix()}/release-notes/SKILL.md."
    assert doc["allow_sleep"] is True and doc["version"] == "1.2.0"
    assert doc["methods"] == [{"name": "release_notes", "kind": "tool", "description": body.strip(), "x-skill-body": True}]
    assert doc["x-skill-frontmatter"] == {"license": "MIT", "metadata": {"version": "1.2.0", "author": "pas-examples"}}
    capsys.readouterr()
    assert main(["validate", "--format", "text", str(out)]) == 0, capsys.readouterr().out
    assert "0 errors, 0 warnings" in capsys.readouterr().out


def test_pas_simulate_runs_the_skills_and_an_activation_shows_the_body(tmp_path, capsys):
    _, out = _extract(tmp_path, EXAMPLES)
    capsys.readouterr()
    assert main(["simulate", "--plugins", str(out), "--text", "run; activate sql_review 1; run; run"]) == 0
    printed = capsys.readouterr().out
    assert "EXPLAIN (ANALYZE, BUFFERS)" in printed and 'module_name="sql_review"' in printed


def test_client_differences_are_warnings_naming_the_clients_and_the_source(tmp_path, capsys):
    code, _ = _extract(tmp_path, EXAMPLES)
    err = capsys.readouterr().err
    assert code == 0
    assert "commit-message/SKILL.md:4:1: warning skill-client-difference key 'user-invocable'" in err
    assert "Claude Code reads it as its own extension" in err and "anthropics/skills#1434" in err
    assert "sql-review/SKILL.md:5:16: warning skill-client-difference compatibility is set" in err
    assert "Codex's quick_validate.py allows only" in err
    assert _extract(tmp_path, EXAMPLES, strict=True)[0] == 1


@pytest.mark.parametrize(("name", "front", "expected"), [
    ("PDF-Tools", "name: PDF-Tools\ndescription: Fills PDF forms.\n", "SKILL.md:2:7: error skill-frontmatter name 'PDF-Tools' must be lowercase"),
    ("pdf--tools", "name: pdf--tools\ndescription: Fills PDF forms.\n", "without '--'"),
    ("folder", "name: other-name\ndescription: Fills PDF forms.\n", "must equal the skill's folder name 'folder'"),
    ("long", "name: long\ndescription: " + "x" * 1025 + "\n", "description is 1025 characters; at most 1024"),
    ("blank", "name: blank\ndescription: '  '\n", "description is required"),
    ("noname", "description: Fills PDF forms.\n", "name is required"),
    ("compat", "name: compat\ndescription: Fills PDF forms.\ncompatibility: ''\n", "compatibility must be 1-500"),
    ("tools", "name: tools\ndescription: Fills PDF forms.\nallowed-tools: 3\n", "allowed-tools must be a space"),
    ("meta", "name: meta\ndescription: Fills PDF forms.\nmetadata: [a]\n", "metadata must be a map"),
    ("n" * 65, f"name: {'n' * 65}\ndescription: Fills PDF forms.\n", "name is 65 characters; at most 64"),
], ids=["uppercase", "double-hyphen", "folder-mismatch", "long-description", "blank-description", "no-name",
        "empty-compatibility", "allowed-tools-type", "metadata-type", "long-name"])
def test_a_skill_the_specification_rejects_is_an_error_at_its_line_and_is_not_written(tmp_path, capsys, name, front, expected):
    skill = _skill(tmp_path / "skills", name, front)
    code, out = _extract(tmp_path, skill)
    err = capsys.readouterr().err
    assert code == 1
    assert expected in err and "skill-frontmatter" in err
    assert not list(out.glob("*.yaml"))


@pytest.mark.parametrize(("front", "expected"), [
    ("name: s\ndescription: Reads <html> pages.\n", "quick_validate.py rejects a description holding < or >"),
    ("name: s\ndescription: Fills forms.\nversion: 1.0.0\n", "key 'version' is not one of the specification's six"),
    ("name: s\ndescription: Fills forms.\nmetadata:\n  version: 1.0\n", "metadata.version is a float"),
], ids=["angle-brackets", "unknown-key", "metadata-not-string"])
def test_a_skill_some_clients_reject_is_written_with_a_warning(tmp_path, capsys, front, expected):
    skill = _skill(tmp_path / "skills", "s", front)
    code, out = _extract(tmp_path, skill)
    assert code == 0
    assert expected in capsys.readouterr().err
    assert (out / "s.yaml").is_file()


def test_a_unicode_lowercase_name_is_a_client_difference_not_an_error(tmp_path, capsys):
    skill = _skill(tmp_path / "skills", "café-menu", "name: café-menu\ndescription: Reads the menu.\n")
    code, out = _extract(tmp_path, skill)
    err = capsys.readouterr().err
    assert code == 0 and "has letters outside a-z" in err and "skills-ref validate accepts" in err
    assert yaml.safe_load((out / "caf_menu.yaml").read_text(encoding="utf-8"))["module_name"] == "caf_menu"


def test_missing_frontmatter_an_unclosed_one_and_bad_yaml_are_errors_with_lines(tmp_path, capsys):
    plain = tmp_path / "skills" / "plain"
    plain.mkdir(parents=True)
    (plain / "SKILL.md").write_text("# Just a heading\n", encoding="utf-8")
    _skill(tmp_path / "skills", "open", "name: open\n", body="")
    (tmp_path / "skills" / "open" / "SKILL.md").write_text("---\nname: open\n", encoding="utf-8")
    _skill(tmp_path / "skills", "bad", "name: [unclosed\n")
    code, _ = _extract(tmp_path, tmp_path / "skills")
    err = capsys.readouterr().err
    assert code == 1
    assert "plain/SKILL.md:1:1: error skill-frontmatter SKILL.md must start with YAML frontmatter" in err
    assert "open/SKILL.md:1:1: error skill-frontmatter the frontmatter has no closing '---' line" in err
    assert "bad/SKILL.md:3:1: error yaml-syntax" in err or "bad/SKILL.md:2" in err


def test_an_empty_body_and_a_long_one_are_warnings(tmp_path, capsys):
    empty = _skill(tmp_path / "skills", "empty", "name: empty\ndescription: Nothing inside.\n", body="")
    long = _skill(tmp_path / "skills", "long", "name: long\ndescription: Very long.\n", body="line\n" * 501)
    code, out = _extract(tmp_path, empty, long)
    err = capsys.readouterr().err
    assert code == 0
    assert "empty/SKILL.md:5:1: warning skill-body the skill has no body" in err
    assert "long/SKILL.md:6:1: warning skill-body the body is 501 lines" in err
    assert "methods" not in yaml.safe_load((out / "empty.yaml").read_text(encoding="utf-8"))


def test_a_folder_without_skills_and_a_missing_path_exit_2(tmp_path, capsys):
    (tmp_path / "nothing").mkdir()
    assert _extract(tmp_path, tmp_path / "nothing")[0] == 2
    assert "no SKILL.md in this folder or below it" in capsys.readouterr().err
    assert _extract(tmp_path, tmp_path / "missing")[0] == 2
