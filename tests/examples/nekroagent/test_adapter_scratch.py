"""The NekroAgent adapter leaves no scratch folder behind: not after 'bye', not when killed, not when killed early.

NekroAgent is imported in a fresh folder (it writes ./data and ./plugins there), which the adapter
deletes as soon as the import is done; a folder left by an adapter killed during its import carries
its pid and is removed by the next adapter. The runner kills an implementation's process group when
a scenario errors, so "killed" is the common case. TMPDIR points each test at its own folder.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from support.nekro_venv import NEEDS_NEKRO, NEKRO_PYTHON

ROOT = Path(__file__).resolve().parents[3]
ADAPTER = ROOT / "examples" / "nekroagent" / "adapter.py"
WEATHER = {"name": "Weather", "module_name": "weather", "version": "1.0.0", "description": "d",
           "allow_sleep": True, "sleep_brief": "Weather.", "methods": [{"name": "get", "kind": "tool", "description": "Get."}]}


def _scratch_module():
    spec = importlib.util.spec_from_file_location("pas_nekro_scratch", ROOT / "examples/nekroagent/nekro_pas/scratch.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _left(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("pas-nekro-"))


class _Adapter:
    """The adapter as the runner starts it: its own process group, JSON lines on stdin/stdout."""

    def __init__(self, tmp: Path) -> None:
        env = {**os.environ, "TMPDIR": str(tmp)}
        self.proc = subprocess.Popen([str(NEKRO_PYTHON), str(ADAPTER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env, start_new_session=True)
        self.next_id = 1

    def ask(self, cmd: str, **fields: object) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write((json.dumps({"id": self.next_id, "cmd": cmd, **fields}) + "\n").encode())
        self.proc.stdin.flush()
        self.next_id += 1
        return json.loads(self.proc.stdout.readline())

    def kill(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)


@NEEDS_NEKRO
@pytest.mark.slow
def test_killed_after_an_errored_step_it_leaves_no_folder(tmp_path: Path) -> None:
    adapter = _Adapter(tmp_path)
    assert adapter.ask("hello", protocol_version=1, spec_version="1.0.0")["ok"]
    assert adapter.ask("start", plugins=[WEATHER], host={"scheduler_enabled": False})["ok"]
    errored = adapter.ask("activate", conversation="c", module_name="weather")
    assert errored["ok"] is False and "not defined in the sandbox" in errored["error"]["message"]
    adapter.kill()
    assert _left(tmp_path) == []


@NEEDS_NEKRO
@pytest.mark.slow
def test_a_folder_of_an_adapter_killed_during_its_import_is_removed_by_the_next(tmp_path: Path) -> None:
    first = _Adapter(tmp_path)
    deadline = time.monotonic() + 60
    while not _left(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.02)
    first.kill()  # during the import: the folder is still there
    (stale,) = _left(tmp_path)
    assert stale.startswith(f"pas-nekro-{first.proc.pid}-")
    second = _Adapter(tmp_path)
    assert second.ask("hello", protocol_version=1, spec_version="1.0.0")["ok"]
    assert second.ask("start", plugins=[WEATHER], host={})["ok"]
    assert second.ask("bye")["ok"]
    second.proc.wait(timeout=30)
    assert _left(tmp_path) == []


def test_sweep_removes_only_folders_of_processes_that_are_gone(tmp_path: Path) -> None:
    scratch = _scratch_module()
    gone = subprocess.Popen(["true"])
    gone.wait()
    for name in (f"pas-nekro-{gone.pid}-abc", f"pas-nekro-{os.getpid() + 0}-mine", f"pas-nekro-{os.getppid()}-live",
                 "pas-nekro-bench-xyz", "pas-nekro-12ab", "other"):
        (tmp_path / name).mkdir()
    removed = scratch.sweep(str(tmp_path))
    assert [Path(p).name for p in removed] == [f"pas-nekro-{gone.pid}-abc"]
    assert scratch.owner("pas-nekro-42-x") == 42 and scratch.owner("pas-nekro-bench-x") is None
    assert scratch.owner("pas-nekro-4242") is None  # the old adapter's random names carry no pid
