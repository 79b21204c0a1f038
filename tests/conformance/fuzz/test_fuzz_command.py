"""``pas fuzz``: exit codes, what it prints, the file it writes, and usage errors."""

from __future__ import annotations

import re

import pytest
from support.fuzz_support import SEED

from conformance.cli.main import main


def _fuzz(*args: str) -> int:
    return main(["fuzz", *args])


def test_a_disagreement_exits_1_and_prints_the_file_and_the_first_differing_step(fakes_importable, tmp_path, capsys):
    code = _fuzz("--impl", "python:broken_counts_activation_run:create", "--seed", str(SEED), "--out", str(tmp_path))
    out = capsys.readouterr().out
    assert code == 1
    written = list(tmp_path.glob("fuzz-*.yaml"))
    assert len(written) == 1
    assert f"wrote {written[0]}" in out
    assert re.search(r"first differing step: \d+ \(run in \w+\)", out)
    shown = re.search(r"/plugins/\d+/rounds_left \((\w+)\): expected (\d+), got (\d+)", out)
    assert shown and int(shown.group(3)) == int(shown.group(2)) - 1


def test_the_reference_exits_0_and_says_nothing_was_found(tmp_path, capsys):
    code = _fuzz("--impl", "reference", "--max-examples", "40", "--seed", "1", "--out", str(tmp_path))
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("pas fuzz: no disagreement in 40 examples")
    assert "seed 1" in out
    assert list(tmp_path.iterdir()) == []


def test_an_errored_implementation_exits_1_and_says_errored(fakes_importable, tmp_path, capsys):
    code = _fuzz("--impl", "python:broken_raises:create", "--seed", str(SEED), "--out", str(tmp_path))
    out = capsys.readouterr().out
    assert code == 1
    assert "broken-raises errored" in out and "raised KeyError" in out
    assert len(list(tmp_path.glob("fuzz-*.yaml"))) == 1


def test_without_a_seed_the_random_seed_is_printed_so_the_run_can_be_repeated(tmp_path, capsys):
    assert _fuzz("--impl", "reference", "--max-examples", "5", "--out", str(tmp_path)) == 0
    assert "seed " in capsys.readouterr().out


def test_the_progress_line_stays_off_when_stderr_is_not_a_terminal(tmp_path, capsys):
    _fuzz("--impl", "reference", "--max-examples", "20", "--seed", "1", "--out", str(tmp_path))
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("args, message", [
    (["--impl", "nonsense"], "--impl 'nonsense'"),
    (["--impl", "python:no_such_module_here:create"], "no module named"),
])
def test_an_unusable_implementation_is_a_usage_error(args, message, tmp_path, capsys):
    assert _fuzz(*args, "--out", str(tmp_path)) == 2
    assert message in capsys.readouterr().err


def test_an_out_path_that_is_a_file_is_a_usage_error(tmp_path, capsys):
    target = tmp_path / "file.txt"
    target.write_text("x")
    assert _fuzz("--impl", "reference", "--out", str(target)) == 2
    assert "not a directory" in capsys.readouterr().err


@pytest.mark.parametrize("args", [[], ["--impl", "reference", "--max-examples", "0"],
                                  ["--impl", "reference", "--time-budget", "-1"], ["--impl", "reference", "--seed", "x"],
                                  ["--impl", "reference", "--profile", "vendor"]])
def test_bad_arguments_exit_2(args, capsys):
    with pytest.raises(SystemExit) as exit_info:
        _fuzz(*args)
    assert exit_info.value.code == 2


def test_a_time_budget_ends_the_search_early_without_a_finding(tmp_path, capsys):
    code = _fuzz("--impl", "reference", "--max-examples", "100000", "--time-budget", "0.3", "--seed", "1",
                 "--out", str(tmp_path))
    out = capsys.readouterr().out
    assert code == 0
    examples = int(out.split("no disagreement in ")[1].split(" ")[0].replace(",", ""))
    assert 0 < examples < 100000


def test_profile_activation_leaves_the_text_out_of_the_comparison(tmp_path, capsys):
    _fuzz("--impl", "reference", "--max-examples", "5", "--seed", "1", "--profile", "activation", "--out", str(tmp_path))
    assert "compared: structured view)" in capsys.readouterr().out
