"""pas validate on hostile inputs (FIFOs, link loops, empty folders, empty globs) and its hints."""

from __future__ import annotations

import os

from conformance.cli.main import main

GOOD = ("name: Weather\nmodule_name: weather\nversion: 1.0.0\n"
        "description: Looks up the weather for a place and a day.\n")


def _validate(capsys, *args: str) -> tuple[int, str]:
    code = main(["validate", "--no-config", *args])
    return code, capsys.readouterr().out


def test_a_fifo_is_refused_with_exit_two_and_never_opened(tmp_path, capsys):
    os.mkfifo(tmp_path / "m.yaml")
    code, out = _validate(capsys, str(tmp_path / "m.yaml"))
    assert code == 2 and "error special-file this is a named pipe (FIFO)" in out


def test_a_folder_with_links_to_itself_and_its_parent_is_walked_once(tmp_path, capsys):
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "m.yaml").write_text(GOOD)
    os.symlink(".", tmp_path / "plugins" / "self")
    os.symlink("..", tmp_path / "plugins" / "up")
    code, out = _validate(capsys, str(tmp_path / "plugins"))
    assert code == 0 and "in 1 file" in out and out.count("symlink-cycle") == 2


def test_a_double_star_glob_over_link_loops_ends(tmp_path, capsys):
    (tmp_path / "m.yaml").write_text(GOOD)
    os.symlink(".", tmp_path / "self")
    os.symlink("..", tmp_path / "up")
    code, out = _validate(capsys, str(tmp_path / "**" / "*.yaml"))
    assert code == 0 and "in 1 file" in out


def test_an_empty_folder_and_a_glob_matching_nothing_are_errors(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    code, out = _validate(capsys, str(tmp_path / "empty"))
    assert code == 2 and "error path-not-found the folder holds no YAML or JSON file" in out
    code, out = _validate(capsys, str(tmp_path / "*.json"))
    assert code == 2 and "error path-not-found the pattern matches no YAML or JSON file" in out


def test_a_misspelt_key_gets_a_did_you_mean_from_the_schema(tmp_path, capsys):
    (tmp_path / "m.yaml").write_text(GOOD + "sleep_breif: Weather lookups for a place.\n")
    code, out = _validate(capsys, str(tmp_path / "m.yaml"))
    assert code == 1 and "unknown field(s) 'sleep_breif'" in out and "did you mean 'sleep_brief'?" in out


def test_a_misspelt_strategy_gets_a_did_you_mean(tmp_path, capsys):
    (tmp_path / "host.yaml").write_text("kind: host-config\nenabled: [weather]\nstrategies:\n  weather: allow_slep\n")
    code, out = _validate(capsys, str(tmp_path / "host.yaml"))
    assert code == 1 and "did you mean 'allow_sleep'?" in out


def test_the_yaml_1_1_boolean_hint_says_to_write_true_or_false(tmp_path, capsys):
    (tmp_path / "m.yaml").write_text(GOOD + "allow_sleep: yes\n")
    code, out = _validate(capsys, str(tmp_path / "m.yaml"))
    assert "write true for a boolean, or quote it ('yes') for the word" in out
