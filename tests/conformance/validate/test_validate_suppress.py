"""Suppression comments and the .pas.yaml config file."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.validate_helpers import found, manifest, run_cli, write

from conformance.validate.suppress import ConfigError, find_config, load_config, parse_suppressions
from reference_impl.problems import Severity


def test_comment_parsing_records_lines_and_whole_file_codes():
    text = "a: 1\nb: 2  # pas: disable=schema, brief-too-short\n# pas: disable-file=protected-brief\n"
    suppressions, problems = parse_suppressions(text, "f.yaml")
    assert problems == []
    assert suppressions.lines == {2: frozenset({"schema", "brief-too-short"})}
    assert suppressions.file == frozenset({"protected-brief"})


def test_an_unknown_code_in_a_comment_is_a_warning_at_the_comment(tmp_path):
    text = manifest(extra="x-a: 1  # pas: disable=no-such-rule\n")
    assert found([write(tmp_path, "m.yaml", text)]) == [("unknown-suppression", "m.yaml", 5)]


def test_a_hash_inside_a_word_is_not_a_comment():
    suppressions, _ = parse_suppressions("a: b#pas: disable=schema\n", "f.yaml")
    assert suppressions.lines == {}


def test_loader_problems_cannot_be_suppressed_inline(tmp_path):
    text = "# pas: disable-file=duplicate-key\nname: a\nname: b  # pas: disable=duplicate-key\n"
    assert found([write(tmp_path, "m.yaml", text)]) == [("duplicate-key", "m.yaml", 3)]


def test_config_file_sets_disable_severity_bounds_known_modules_and_limits(tmp_path):
    path = write(tmp_path, ".pas.yaml", """\
disable: [protected-brief]
severity: {missing-dependency: error, brief-too-short: info}
brief_min_length: 5
brief_max_length: 50
known_modules: [memory_tools]
cross_file: false
limits: {max_depth: 10, max_bytes: 1000}
""")
    config = load_config(Path(path))
    assert config.disable == {"protected-brief"}
    assert config.severity == {"missing-dependency": Severity.ERROR, "brief-too-short": Severity.INFO}
    assert (config.lint.brief_min_length, config.lint.brief_max_length) == (5, 50)
    assert (config.lint.known_modules, config.lint.cross_file) == ({"memory_tools"}, False)
    assert (config.limits.max_depth, config.limits.max_bytes, config.limits.max_nodes) == (10, 1000, 200_000)


@pytest.mark.parametrize("text", [
    "disable: [no-such-rule]\n",
    "disable: [yaml-syntax]\n",
    "severity: {schema: fatal}\n",
    "brief_min_length: 0\n",
    "limits: {max_depth: -1}\n",
    "limits: {max_files: 3}\n",
    "colour: blue\n",
    "known_modules: memory_tools\n",
    "- not a mapping\n",
])
def test_a_bad_config_file_is_a_config_error(tmp_path, text):
    with pytest.raises(ConfigError):
        load_config(Path(write(tmp_path, ".pas.yaml", text)))


def test_the_nearest_config_file_is_found_up_to_the_repository_root(tmp_path):
    write(tmp_path, ".pas.yaml", "disable: [schema]\n")
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / "plugins").mkdir()
    assert find_config(tmp_path / "repo" / "plugins") is None
    write(tmp_path / "repo", ".pas.yml", "disable: [schema]\n")
    assert find_config(tmp_path / "repo" / "plugins") == tmp_path / "repo" / ".pas.yml"


def test_the_cli_reads_the_config_of_the_working_directory(tmp_path, monkeypatch, capsys):
    (tmp_path / ".git").mkdir()
    write(tmp_path, ".pas.yaml", "severity: {brief-too-short: error}\n")
    path = write(tmp_path, "m.yaml", manifest(extra="sleep_brief: Short.\nallow_sleep: true\n"))
    monkeypatch.chdir(tmp_path)
    status, out, _ = run_cli(capsys, "--quiet", path)
    assert (status, out.split()[1:3]) == (1, ["error", "brief-too-short"])
    status, out, _ = run_cli(capsys, "--quiet", "--no-config", path)
    assert (status, out.split()[1:3]) == (0, ["warning", "brief-too-short"])


def test_a_bad_config_file_exits_2_with_one_line(tmp_path, capsys):
    config = write(tmp_path, "pas.yaml", "disable: [nope]\n")
    status, out, err = run_cli(capsys, "--config", config, write(tmp_path, "m.yaml", manifest()))
    assert (status, out) == (2, "")
    assert "unknown code 'nope'" in err and len(err.splitlines()) == 1


def test_a_missing_config_file_exits_2(tmp_path, capsys):
    status, _, err = run_cli(capsys, "--config", str(tmp_path / "nope.yaml"), write(tmp_path, "m.yaml", manifest()))
    assert status == 2 and "no such file" in err


def test_disable_option_takes_comma_separated_codes_and_rejects_unknown_ones(tmp_path, capsys):
    path = write(tmp_path, "m.yaml", manifest(extra="x-a: on\nsleep_brief: Short.\nallow_sleep: true\n"))
    assert run_cli(capsys, "--no-config", "--disable", "brief-too-short,ambiguous-yaml-value", path)[1].startswith("pas validate: 0 errors, 0 warnings")
    status, _, err = run_cli(capsys, "--no-config", "--disable", "nope", path)
    assert status == 2 and "nope" in err
