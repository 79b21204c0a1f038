"""``pas validate`` from the command line: paths, kinds, exit codes, formats chosen, colour, no tracebacks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.validate_helpers import BRIEF, manifest, run_cli, write

from conformance.documents import loader as _yaml

ROOT = Path(__file__).resolve().parents[3]
CORPUS = Path(__file__).resolve().parent / "corpus"


@pytest.fixture(autouse=True)
def _plain_environment(monkeypatch):
    for name in ("GITHUB_ACTIONS", "NO_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)


def test_clean_files_exit_0_with_a_summary(tmp_path, capsys):
    status, out, err = run_cli(capsys, "--no-config", write(tmp_path, "m.yaml", manifest()))
    assert (status, out, err) == (0, "pas validate: 0 errors, 0 warnings, 0 info in 1 file (1 document checked)\n", "")


def test_each_problem_is_one_line_path_line_col_severity_code_message_pointer(tmp_path, capsys):
    path = write(tmp_path, "m.yaml", manifest(extra="colour: blue\n"))
    status, out, _ = run_cli(capsys, "--no-config", "--quiet", path)
    assert status == 1
    assert out == f"{path}:5:1: error schema unknown field(s) 'colour'; check the spelling or prefix extensions with 'x-' [/colour]\n"


def test_warnings_exit_0_unless_strict(tmp_path, capsys):
    path = write(tmp_path, "m.yaml", manifest(extra="sleep_brief: Short.\n"))
    assert run_cli(capsys, "--no-config", path)[0] == 0
    assert run_cli(capsys, "--no-config", "--strict", path)[0] == 1


def test_info_never_fails_even_with_strict(tmp_path, capsys):
    path = write(tmp_path, "m.yaml", manifest(extra=f"allow_sleep: false\nsleep_brief: {BRIEF}\n"))
    assert run_cli(capsys, "--no-config", "--strict", path)[0] == 0


def test_a_missing_path_exits_2_after_checking_the_rest(tmp_path, capsys):
    good = write(tmp_path, "m.yaml", manifest())
    status, out, _ = run_cli(capsys, "--no-config", good, str(tmp_path / "gone.yaml"))
    assert status == 2
    assert "gone.yaml: error path-not-found" in out and "1 file" in out


def test_an_unreadable_file_exits_2(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, "m.yaml", manifest())

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(_yaml, "_read_regular", refuse)
    status, out, _ = run_cli(capsys, "--no-config", path)
    assert status == 2 and "error unreadable cannot read the file: Permission denied" in out


def test_no_paths_and_bad_options_exit_2(capsys, tmp_path):
    assert run_cli(capsys)[0] == 2
    for args in (["--max-depth", "0", "x.yaml"], ["--format", "xml", "x.yaml"], ["--kind", "plugin", "x.yaml"]):
        with pytest.raises(SystemExit) as exit_info:
            run_cli(capsys, *args)
        assert exit_info.value.code == 2


def test_an_unexpected_exception_is_one_line_and_exit_2_never_a_traceback(tmp_path, capsys, monkeypatch):
    import conformance.validate.check

    def explode(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(conformance.validate.check, "check_paths", explode)
    status, out, err = run_cli(capsys, "--no-config", write(tmp_path, "m.yaml", manifest()))
    assert (status, out) == (2, "")
    assert err == "pas validate: internal error: RuntimeError: boom (a bug in pas; please report it)\n"


def test_directories_are_searched_recursively_skipping_hidden_folders_and_other_documents(tmp_path, capsys):
    write(tmp_path, "plugins/a/manifest.yaml", manifest("alpha"))
    write(tmp_path, "plugins/b/manifest.json", json.dumps({"name": "B", "module_name": "beta", "version": "1.0.0",
                                                             "description": "b", "colour": 1}, indent=2))
    write(tmp_path, "plugins/.hidden/bad.yaml", "a: [\n")
    write(tmp_path, "plugins/ci.yml", "on: push\njobs: {}\n")
    write(tmp_path, "plugins/notes.txt", "module_name: [\n")
    status, out, _ = run_cli(capsys, "--no-config", str(tmp_path / "plugins"))
    assert status == 1
    assert out.splitlines() == [
        f"{tmp_path}/plugins/b/manifest.json:6:3: error schema unknown field(s) 'colour'; check the spelling or "
        "prefix extensions with 'x-' [/colour]",
        "pas validate: 1 error, 0 warnings, 0 info in 3 files (2 documents checked, 1 skipped)",
    ]


def test_globs_are_expanded_and_matched_files_are_explicit(tmp_path, capsys):
    write(tmp_path, "a.yaml", manifest("alpha"))
    write(tmp_path, "b.yaml", "just: data\n")
    status, out, _ = run_cli(capsys, "--no-config", str(tmp_path / "*.yaml"))
    assert status == 0
    assert "b.yaml:1:1: info unrecognized-document" in out and "in 2 files" in out


def test_kind_option_checks_any_document_as_that_kind(tmp_path, capsys):
    path = write(tmp_path, "b.yaml", "just: data\n")
    status, out, _ = run_cli(capsys, "--no-config", "--quiet", "--kind", "host-config", path)
    assert (status, out.split()[1:3]) == (1, ["error", "schema"])


@pytest.mark.parametrize("text", [
    "kind: host-config\nenabled: [x]\nmodule_name: x\n",
    "$schema: ../schemas/host-config.schema.json\nmodule_name: x\n",
    "# yaml-language-server: $schema=https://plugin-activation-spec.org/schemas/1.0/host-config.schema.json\nmodule_name: x\n",
])
def test_declared_kind_schema_reference_and_modeline_override_the_shape(tmp_path, capsys, text):
    status, out, _ = run_cli(capsys, "--no-config", "--quiet", write(tmp_path, "h.yaml", text))
    assert status == 1 and "unknown field(s) 'module_name'" in out


def test_each_document_of_a_multi_document_file_is_checked(tmp_path, capsys):
    text = manifest("alpha") + "---\n" + manifest("beta", "colour: red\n") + "---\nkind: host-config\nenabled: [alpha]\n"
    status, out, _ = run_cli(capsys, "--no-config", write(tmp_path, "all.yaml", text))
    assert status == 1
    assert ":10:1: error schema unknown field(s) 'colour'" in out and "(3 documents checked)" in out


def test_json_duplicate_keys_are_errors_with_both_lines(capsys):
    status, out, _ = run_cli(capsys, "--no-config", "--quiet", str(CORPUS / "duplicate-key.json"))
    assert status == 1
    assert "duplicate-key.json:6:3: error duplicate-key key 'version' appears twice (first at line 4, column 3)" in out


def test_github_format_is_chosen_automatically_inside_github_actions(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    path = write(tmp_path, "m.yaml", manifest(extra="colour: blue\n"))
    status, out, _ = run_cli(capsys, "--no-config", path)
    assert status == 1 and out.startswith(f"::error file={path},line=5,col=1,title=pas schema::")
    assert run_cli(capsys, "--no-config", "--format", "text", path)[1].startswith(path)


def _tty_run(capsys, monkeypatch, *args: str) -> str:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    return run_cli(capsys, *args)[1]


def test_text_is_coloured_on_a_terminal_unless_no_color_is_set(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, "m.yaml", manifest(extra="colour: blue\n"))
    assert "\x1b[" in _tty_run(capsys, monkeypatch, "--no-config", path)
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in _tty_run(capsys, monkeypatch, "--no-config", path)
    assert "\x1b[" in _tty_run(capsys, monkeypatch, "--no-config", "--color", "always", path)


def test_text_is_not_coloured_when_piped(tmp_path, capsys):
    path = write(tmp_path, "m.yaml", manifest(extra="colour: blue\n"))
    assert "\x1b[" not in run_cli(capsys, "--no-config", path)[1]


def test_output_option_writes_the_report_to_a_file(tmp_path, capsys):
    report = tmp_path / "out" / "report.json"
    report.parent.mkdir()
    status, out, _ = run_cli(capsys, "--no-config", "-f", "json", "-o", str(report), write(tmp_path, "m.yaml", manifest()))
    assert (status, out) == (0, "")
    assert json.loads(report.read_text(encoding="utf-8"))["summary"]["files"] == 1


def test_list_rules_prints_every_code(capsys):
    from conformance.validate.lint.registry import RULES

    status, out, _ = run_cli(capsys, "--list-rules")
    assert status == 0 and [line.split()[0] for line in out.splitlines()] == list(RULES)


def _subprocess(*args: str, limit_memory: bool = False) -> subprocess.CompletedProcess:
    def cap() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=60, preexec_fn=cap if limit_memory else None, check=False)


@pytest.mark.slow
def test_the_505_byte_alias_bomb_is_stopped_by_the_node_cap_within_1_gib(tmp_path):
    bomb = CORPUS / "alias-bomb.yaml"
    assert bomb.stat().st_size == 505
    result = _subprocess("-m", "conformance", "validate", "--no-config", "-q", str(bomb), limit_memory=True)
    assert result.returncode == 1, result.stderr
    assert ":12:13: error yaml-too-many-nodes" in result.stdout


@pytest.mark.slow
def test_an_oversize_file_is_refused_before_it_is_parsed(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"description: '" + b"x" * (3 * 1024 * 1024) + b"'\n")
    result = _subprocess("-m", "conformance", "validate", "--no-config", "-q", str(big), limit_memory=True)
    assert (result.returncode, result.stdout.split()[1:3]) == (1, ["error", "file-too-large"])


@pytest.mark.slow
def test_validating_one_valid_file_imports_nothing_heavy_not_even_jsonschema_or_pyyaml(tmp_path):
    path = write(tmp_path, "m.yaml", manifest())
    code = ("import sys; from conformance.cli.main import main; main(['validate', '-q', '--no-config', sys.argv[1]]); "
            "print(' '.join(sorted(sys.modules)), file=sys.stderr)")
    result = _subprocess("-c", code, path)
    modules = set(result.stderr.split())
    assert "conformance.validate.check" in modules and "yaml_rs" in modules and "jsonschema_rs" in modules
    # PyYAML (the event loader) only for a document the fast path declines; jsonschema only for a problem.
    heavy = {"yaml", "jsonschema", "referencing", "hypothesis", "multiprocessing", "concurrent.futures", "xml.etree.ElementTree",
             "conformance.report.problems_junit", "conformance.report.problems_sarif", "reference_impl.scheduler"}
    assert modules & heavy == set()


def test_a_file_named_twice_or_also_inside_a_named_folder_is_checked_once_as_named(tmp_path, capsys):
    other = write(tmp_path, "plugins/other.yaml", "just: data\n")
    status, out, _ = run_cli(capsys, "--no-config", str(tmp_path / "plugins"), other, other)
    assert status == 0
    assert "info unrecognized-document" in out and "in 1 file (0 documents checked, 1 skipped)" in out
