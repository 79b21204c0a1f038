"""``pas --help``, ``pas --version`` and ``pas`` alone: the commands are listed, none of their arguments is built."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conformance.cli.main import build_parser, main

# What some commands' arguments import for their choices and defaults (run, fuzz, budget, extract, simulate).
_ARGUMENT_IMPORTS = {"conformance.adapters.implementation", "conformance.tools.budget.cache",
                     "conformance.tools.extract.mcp_live", "conformance.tools.simulate.script", "reference_impl.model"}


@pytest.mark.parametrize("argv", [["--version"], ["--help"], []], ids=["version", "help", "nothing"])
def test_the_top_level_alone_imports_no_commands_arguments(argv):
    code = ("import sys; from conformance.cli.main import main\n"
            f"try: main({argv!r})\nexcept SystemExit: pass\n"
            "print(' '.join(sorted(sys.modules)), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert _ARGUMENT_IMPORTS & set(done.stderr.split()) == set()


def test_the_top_level_help_is_the_full_parsers(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert capsys.readouterr().out == build_parser().format_help()


def test_a_command_after_a_top_level_option_still_gets_its_arguments(capsys):
    # "--verison" names no command, but "validate" does: its arguments are built, so only the misspelt word is reported.
    assert main(["--verison", "validate", "conformance/examples"]) == 2
    err = capsys.readouterr().err
    assert "unknown option '--verison'" in err and "conformance/examples" not in err
