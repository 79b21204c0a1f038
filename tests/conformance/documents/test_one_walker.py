"""One folder, one answer: validate, simulate, host plan and the scenario loader walk alike,
recursively, each real file once, never into a symlink loop, never opening a FIFO."""

from __future__ import annotations

import os
import threading

import pytest

from conformance.documents.plugin_set import load_plugin_set
from conformance.documents.walk import collect_targets, expand_pattern, walk_folder
from conformance.suite.scenario import find_scenario_files, load_suite

MANIFEST = "name: {0}\nmodule_name: {0}\nversion: 1.0.0\ndescription: The {0} plugin for tests.\n"


def _tree(root):
    """a.yaml, sub/b.yaml, sub/deeper/c.yml, a link to the root, to its parent and to sub, and a FIFO."""
    (root / "sub" / "deeper").mkdir(parents=True)
    (root / "a.yaml").write_text(MANIFEST.format("alpha"))
    (root / "sub" / "b.yaml").write_text(MANIFEST.format("beta"))
    (root / "sub" / "deeper" / "c.yml").write_text(MANIFEST.format("gamma"))
    os.symlink(".", root / "sub" / "self")
    os.symlink("..", root / "sub" / "up")
    os.symlink("sub", root / "again")
    os.mkfifo(root / "pipe.yaml")
    return root


def _no_reader_waits(path):
    """Fail instead of hanging for ever should anything open the FIFO for reading."""
    def unblock():
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            os.close(fd)
        except OSError:
            pass
    timer = threading.Timer(5, unblock)
    timer.start()
    return timer


def test_the_walk_is_recursive_sorted_once_per_file_and_refuses_the_fifo(tmp_path):
    root = _tree(tmp_path / "plugins")
    walk = walk_folder(root)
    assert [p.relative_to(root).as_posix() for p in walk.files] == ["a.yaml", "sub/b.yaml", "sub/deeper/c.yml"]
    codes = sorted(p.code for p in walk.problems)
    assert codes == ["special-file", "symlink-cycle", "symlink-cycle", "symlink-cycle"]
    assert "named pipe (FIFO)" in next(p.message for p in walk.problems if p.code == "special-file")


def test_validate_simulate_host_plan_and_scenarios_see_the_same_files(tmp_path):
    root = _tree(tmp_path / "plugins")
    timer = _no_reader_waits(root / "pipe.yaml")
    expected = {"a.yaml", "sub/b.yaml", "sub/deeper/c.yml"}
    targets, problems = collect_targets([str(root)])
    assert {os.path.relpath(t.path, root) for t in targets} == expected
    assert "special-file" in {p.code for p in problems}
    plugins = load_plugin_set(root)  # simulate, budget, host plan and config explain read the folder so
    assert sorted(m.module_name for m in plugins.manifests) == ["alpha", "beta", "gamma"]
    assert "special-file" in {p.code for p in plugins.problems}
    files, scenario_problems = find_scenario_files([root])
    assert {p.relative_to(root).as_posix() for p in files} == expected
    assert [p.code for p in scenario_problems] == ["special-file"]
    timer.cancel()


def test_a_double_star_glob_does_not_follow_directory_links_into_loops(tmp_path):
    root = _tree(tmp_path / "plugins")
    matches = expand_pattern(str(root / "**" / "*.y*ml"))
    assert sorted(p.relative_to(root).as_posix() for p in matches) == ["a.yaml", "pipe.yaml", "sub/b.yaml",
                                                                       "sub/deeper/c.yml"]


def test_an_unlistable_folder_is_an_error_not_an_empty_one(tmp_path, monkeypatch):
    root = _tree(tmp_path / "plugins")
    real_scandir = os.scandir

    def refuse(path):
        if str(path).endswith("deeper"):
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", refuse)
    walk = walk_folder(root)
    (problem,) = [p for p in walk.problems if p.code == "unreadable"]
    assert problem.source.path.endswith("deeper") and "Permission denied" in problem.message


def test_a_fifo_named_as_a_scenario_is_refused_not_opened(tmp_path):
    os.mkfifo(tmp_path / "s.yaml")
    timer = _no_reader_waits(tmp_path / "s.yaml")
    scenarios, problems = load_suite([tmp_path / "s.yaml"])
    timer.cancel()
    assert scenarios == [] and [p.code for p in problems] == ["special-file"]


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_device_is_refused(device, tmp_path):
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    scenarios, problems = load_suite([device])
    assert [p.code for p in problems] == ["special-file"] and "character device" in problems[0].message
