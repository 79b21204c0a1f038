"""``pas extract nekro``: files written, exit codes, and manifests that pass ``pas validate``."""

from __future__ import annotations

from pathlib import Path

import yaml

from conformance.cli.main import main

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CLEAN = ["basic.py", "note.py", "dice.py", "two_plugins.py"]


def _extract(tmp_path: Path, *paths: str) -> tuple[int, Path]:
    out = tmp_path / "manifests"
    code = main(["extract", "nekro", *paths, "--out", str(out)])
    return code, out


def test_complete_plugins_exit_0_and_every_manifest_passes_pas_validate(tmp_path, capsys):
    code, out = _extract(tmp_path, *(str(FIXTURES / name) for name in CLEAN))
    assert code == 0
    # the manifests, and the hidden source map pas validate reads (test_extract_source_map.py)
    assert sorted(p.name for p in out.iterdir()) == [".pas-sources.json", "basic.yaml", "dice.yaml", "note.yaml",
                                                     "status.yaml", "timer.yaml"]
    capsys.readouterr()
    assert main(["validate", "--format", "text", str(out)]) == 0, capsys.readouterr().out
    # the fixtures keep NekroAgent's dice/timer pattern: a brief without allow_sleep, the only warning
    main(["validate", "--strict", "--format", "text", str(out)])
    warned = [line.split()[2] for line in capsys.readouterr().out.splitlines() if ": warning " in line]
    assert warned and set(warned) == {"brief-without-allow-sleep"}


def test_what_extract_writes_the_one_loader_reads_back_as_manifests_for_every_command(tmp_path, capsys):
    from conformance.documents.kinds import Kind
    from conformance.documents.sets import load_set

    code, out = _extract(tmp_path, *(str(FIXTURES / name) for name in CLEAN))
    assert code == 0
    loaded = load_set([out])
    assert loaded.problems == ()
    assert [item.kind for file in loaded.files for item in file.documents] == [Kind.MANIFEST] * 5
    capsys.readouterr()
    assert main(["simulate", "--plugins", str(out), "run"]) == 0
    assert main(["budget", "--plugins", str(out), "--tokenizer", "estimate"]) == 0
    assert capsys.readouterr().err == ""


def test_written_files_carry_the_modeline_and_kind_and_keep_cjk_as_written(tmp_path):
    _, out = _extract(tmp_path, str(FIXTURES / "note.py"))
    text = (out / "note.yaml").read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=https://plugin-activation-spec.org/schemas/1.0/"
                           "plugin-manifest.schema.json\n")
    doc = yaml.safe_load(text)
    assert doc["kind"] == "plugin-manifest" and doc["name"] == "笔记插件"
    assert "笔记插件" in text  # not \u escapes


def test_warnings_exit_0_as_in_pas_validate_and_say_that_fields_were_left_out(tmp_path, capsys):
    code, out = _extract(tmp_path, str(FIXTURES / "runtime_brief.py"))
    err = capsys.readouterr().err
    assert code == 0
    assert "runtime_brief.py:18:17: warning unresolved-field sleep_brief" in err
    assert "left out, never guessed" in err
    assert (out / "weather.yaml").exists()


def test_a_folder_is_searched_and_a_syntax_error_exits_2_with_file_line_col_while_the_rest_is_written(tmp_path, capsys):
    code, out = _extract(tmp_path, str(FIXTURES))
    err = capsys.readouterr().err
    assert code == 2
    assert "broken_syntax.py:8:" in err and "syntax-error" in err
    assert {"basic.yaml", "draw.yaml", "note.yaml", "weather.yaml"} <= {p.name for p in out.iterdir()}
    assert main(["validate", str(out)]) == 0  # warnings (a brief left out) but no errors


def test_a_missing_path_exits_2(tmp_path, capsys):
    code, _ = _extract(tmp_path, str(tmp_path / "nope.py"))
    assert code == 2 and "path-not-found" in capsys.readouterr().err


def test_an_output_that_is_a_file_exits_2_without_a_traceback(tmp_path, capsys):
    blocker = tmp_path / "manifests"
    blocker.write_text("not a folder")
    code = main(["extract", "nekro", str(FIXTURES / "dice.py"), "--out", str(blocker)])
    err = capsys.readouterr().err
    assert code == 2 and "cannot write" in err and "Traceback" not in err


def test_a_file_without_any_plugin_exits_1_and_says_so(tmp_path, capsys):
    empty = tmp_path / "empty.py"
    empty.write_text("x = 1\n")
    code, _ = _extract(tmp_path, str(empty))
    assert code == 1 and "no NekroPlugin(...) call found" in capsys.readouterr().err


def test_extract_without_a_framework_is_a_usage_error(capsys):
    assert main(["extract"]) == 2
    assert "nekro" in capsys.readouterr().err


def test_with_strict_warnings_exit_1_as_in_pas_validate(tmp_path, capsys):
    assert main(["extract", "nekro", str(FIXTURES / "runtime_brief.py"), "--out", str(tmp_path / "out"), "--strict"]) == 1
    assert "warning unresolved-field" in capsys.readouterr().err
    assert main(["extract", "nekro", str(FIXTURES / "basic.py"), "--out", str(tmp_path / "basic"), "--strict"]) == 0


def test_an_error_exits_1_without_strict(tmp_path, capsys):
    assert main(["extract", "nekro", str(FIXTURES / "rejected_call.py"), "--out", str(tmp_path / "out")]) == 1
    assert "error rejected-plugin-call" in capsys.readouterr().err
