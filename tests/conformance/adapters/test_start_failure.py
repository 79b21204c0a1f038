"""A cmd: implementation that cannot be started: the reason and the fix, not the bare OS error."""

from __future__ import annotations

import errno

import pytest

from conformance.adapters.start_failure import explain
from conformance.cli.main import main


def _script(tmp_path, name: str, text: str, mode: int = 0o644):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    path.chmod(mode)
    return path


def test_pas_run_says_to_chmod_a_script_without_the_executable_bit_or_run_it_through_node(tmp_path, capsys, monkeypatch):
    _script(tmp_path, "sched.js", "#!/usr/bin/env node\nprocess.exit(0)\n")
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--impl", "cmd:./sched.js --pas", "--profile", "activation"]) == 2  # it could not start
    err = capsys.readouterr().err
    assert ("./sched.js is not executable: make it executable (chmod +x ./sched.js) "
            "or run it through its interpreter (cmd:node ./sched.js --pas)") in err
    assert "Errno" not in err


@pytest.mark.parametrize(("name", "text", "interpreter"), [
    ("server.py", "print('hi')\n", "python3"),  # no #! line: by the suffix
    ("server", "#!/usr/bin/python3 -u\n", "python3"),  # #! with a path and a flag
    ("tool.sh", "#!/usr/bin/env -S bash -e\n", "bash"),  # env with options
    ("server.bin", "\x7fELF", "its interpreter"),
])
def test_the_interpreter_suggested_comes_from_the_hashbang_line_or_the_suffix(tmp_path, name, text, interpreter):
    path = _script(tmp_path, name, text)
    message = explain([str(path)], PermissionError(errno.EACCES, "Permission denied"))
    assert message.endswith(f"(cmd:{interpreter} {path})")


def test_a_folder_a_missing_file_and_a_missing_program_are_told_apart(tmp_path):
    missing = OSError(errno.ENOENT, "No such file or directory")
    assert explain([str(tmp_path)], PermissionError(errno.EACCES, "Permission denied")) == (
        f"{tmp_path} is a folder, not a program; name the program inside it")
    assert explain([str(tmp_path / "gone.js")], missing).startswith(f"{tmp_path / 'gone.js'}: no such file (relative paths are read from ")
    assert explain(["no-such-scheduler-program"], missing) == "no-such-scheduler-program: no such program on PATH"


def test_a_hashbang_naming_an_interpreter_that_is_not_there_is_named(tmp_path):
    path = _script(tmp_path, "server", "#!/opt/nowhere/bin/node\n", 0o755)
    message = explain([str(path)], OSError(errno.ENOENT, "No such file or directory"))
    assert message == f"{path} starts with #!, naming /opt/nowhere/bin/node, which is not installed or not on PATH"
