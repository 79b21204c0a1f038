"""A word a command does not take: the command's own usage and the closest option, not the top-level usage."""

from __future__ import annotations

import pytest

from conformance.cli.main import main


def test_a_misspelt_option_names_the_option_it_is_close_to_and_the_commands_usage(capsys):
    assert main(["validate", "--stirct", "conformance/examples"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: pas validate ")
    assert "pas validate: error: unknown option '--stirct'; did you mean '--strict'? (see pas validate --help)" in err
    assert "COMMAND ..." not in err  # not the top-level usage


@pytest.mark.parametrize(("argv", "line"), [
    (["validate", "--foo", "x"], "pas validate: error: unknown option '--foo' (see pas validate --help)"),
    (["run", "--expected-falures=x.yaml"], "pas run: error: unknown option '--expected-falures=x.yaml'; "
                                           "did you mean '--expected-failures'?"),
    (["schema", "manifest", "extra"], "pas schema: error: unexpected argument 'extra'"),
    (["--verison"], "pas: error: unknown option '--verison'; did you mean '--version'?"),
], ids=["far-from-every-option", "with-a-value", "extra-positional", "top-level"])
def test_each_word_not_taken_gets_its_own_line(capsys, argv, line):
    assert main(argv) == 2
    assert line in capsys.readouterr().err


def test_budget_with_a_missing_plugin_folder_reports_that_folder_once_and_nothing_else(tmp_path, capsys):
    # Before the one loader of document sets, a second error followed: the default mix built from no plugins.
    assert main(["budget", "--tokenizer", "estimate", "--plugins", str(tmp_path / "nope")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"{tmp_path / 'nope'}: error path-not-found no such file or directory\n"
