"""An implementation and every process it started are gone when the run ends, even those that left its group."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.bundled import bundled_suite
from support.stdio_support import gone_soon, parent_of, wait_for_file

from conformance.adapters import reaper
from conformance.adapters.implementation import ImplementationFailed
from conformance.adapters.stdio import StdioAdapter
from conformance.suite.results import Outcome
from conformance.suite.runner import run_suite
from reference_impl.events import StartRun
from reference_impl.model import HostConfig

ROOT = Path(__file__).resolve().parents[3]
GRANDCHILD = ROOT / "tests" / "fakes" / "hostile_setsid_grandchild.py"
LINUX = sys.platform.startswith("linux")

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("error::ResourceWarning")]


@pytest.fixture
def pid_file(tmp_path: Path) -> Iterator[Path]:
    """Where the fake writes its grandchild's pid; the grandchild is killed here whatever the test did."""
    path = tmp_path / "grandchild.pid"
    yield path
    for pid in pids(path) if path.exists() else []:
        try:
            os.kill(pid, 9)
        except OSError:
            pass


def pids(path: Path) -> list[int]:
    """Every grandchild pid the fake wrote (waiting for the first)."""
    return [int(line) for line in wait_for_file(path).split()]


def adapter(pid_file: Path, *args: str, timeout: float = 5.0) -> StdioAdapter:
    return StdioAdapter([sys.executable, str(GRANDCHILD), str(pid_file), *args], timeout=timeout)


@pytest.mark.skipif(not LINUX, reason="descendants outside the process group are found through Linux's /proc")
def test_a_setsid_grandchild_is_re_parented_to_the_implementation_and_killed_when_the_adapter_closes(pid_file: Path) -> None:
    implementation = adapter(pid_file)
    implementation.start([], HostConfig())
    assert implementation.send(StartRun(conversation="main")) == {"plugins": []}
    [grandchild] = pids(pid_file)
    assert parent_of(grandchild) == implementation.pid, "the implementation is its orphans' subreaper"
    assert os.getsid(grandchild) == grandchild != os.getsid(implementation.pid), "it left the group and the session"
    implementation.close()
    assert gone_soon(grandchild)


@pytest.mark.skipif(not LINUX, reason="descendants outside the process group are found through Linux's /proc")
def test_a_hang_kills_the_setsid_grandchild_too_and_the_step_is_an_error(pid_file: Path) -> None:
    implementation = adapter(pid_file, "hang")
    implementation.start([], HostConfig())
    implementation.timeout = 0.5  # only now: a slow start-up on a busy machine is no hang
    with pytest.raises(ImplementationFailed) as caught:
        implementation.send(StartRun(conversation="main"))
    assert caught.value.reason == "no response to 'run' within 0.5 s"
    assert implementation.pid is None
    assert all(gone_soon(pid) for pid in pids(pid_file))


@pytest.mark.skipif(not LINUX, reason="descendants outside the process group are found through Linux's /proc")
def test_after_a_whole_run_no_process_of_the_implementation_is_left(pid_file: Path) -> None:
    scenarios = [s for s in bundled_suite()[0] if not s.is_host][:3]
    implementation = adapter(pid_file)
    try:
        result = run_suite(implementation, scenarios)
    finally:
        implementation.close()
    assert len(result.results) == 3 and not result.interrupted  # its wrong answers are results, errored ones too
    assert Outcome.ERRORED in {r.outcome for r in result.results}
    grandchildren = pids(pid_file)
    assert len(grandchildren) >= 2, "an errored scenario resets the implementation: a new process, a new grandchild"
    assert [pid for pid in grandchildren if not gone_soon(pid)] == []


@pytest.mark.skipif(not LINUX, reason="descendants outside the process group are found through Linux's /proc")
def test_a_runner_that_exits_without_closing_still_leaves_nothing_behind(pid_file: Path) -> None:
    script = (f"from conformance.adapters.stdio import StdioAdapter\n"
              f"a = StdioAdapter([{sys.executable!r}, {str(GRANDCHILD)!r}, {str(pid_file)!r}])\n"
              f"a.hello()\n"
              f"print(a.pid, flush=True)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    assert gone_soon(int(done.stdout))
    assert all(gone_soon(pid) for pid in pids(pid_file))


def test_descendants_finds_children_recursively_and_only_marked_orphans(tmp_path: Path) -> None:
    tree = subprocess.Popen([sys.executable, "-c", "import subprocess, sys, time\n"
                             "c = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)'])\n"
                             "print(c.pid, flush=True); time.sleep(30)"], stdout=subprocess.PIPE, text=True)
    unmarked = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        child = int(tree.stdout.readline())
        if not LINUX:
            pytest.skip("no /proc")
        found = reaper.descendants(tree.pid, "no-such-token")
        assert child in found and unmarked.pid not in found and tree.pid not in found
        # read from the children files of the few processes concerned, as the whole walk of /proc finds them
        assert reaper._descendants_by_children(tree.pid, "no-such-token") == found
        assert reaper._descendants_by_parents(tree.pid, "no-such-token") == found
    finally:
        for process in (tree, unmarked):
            process.kill()
            process.wait()
        tree.stdout.close()
    assert gone_soon(child) or parent_of(child) is not None  # killed by nobody here: init or we reap it later


CLEAN_ENV = ROOT / "tests" / "fakes" / "hostile_setsid_clean_env.py"


@pytest.mark.skipif(not LINUX, reason="descendants outside the process group are found through Linux's /proc")
@pytest.mark.parametrize("mode", ["answers", "hang", "crash"])
def test_a_daemon_with_a_cleared_environment_in_a_session_of_its_own_is_killed_with_the_run(pid_file: Path,
                                                                                          mode: str) -> None:
    """No mark in its environment ties it to the run: the runner noted it under the implementation, its subreaper."""
    implementation = StdioAdapter([sys.executable, str(CLEAN_ENV), str(pid_file), *([] if mode == "answers" else [mode])],
                                  timeout=5.0)
    implementation.start([], HostConfig())
    [daemon] = pids(pid_file)
    assert Path(f"/proc/{daemon}/environ").read_bytes() == b"" and os.getsid(daemon) != os.getsid(implementation.pid)
    implementation.timeout = 0.5  # only now: a slow start-up on a busy machine is no hang
    try:
        implementation.send(StartRun(conversation="main"))
    except ImplementationFailed as failure:
        assert mode != "answers", failure
    implementation.close()
    assert gone_soon(daemon)


@pytest.mark.skipif(not LINUX, reason="Linux's /proc")
def test_a_snapshot_notes_descendants_with_their_start_times_and_a_reused_pid_is_not_killed() -> None:
    tree = subprocess.Popen([sys.executable, "-c", "import subprocess, sys, time\n"
                             "c = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)'])\n"
                             "print(c.pid, flush=True); time.sleep(30)"], stdout=subprocess.PIPE, text=True)
    try:
        child = int(tree.stdout.readline())
        noted = reaper.snapshot(tree.pid)
        assert list(noted) == [child] and noted[child] > 0
        assert reaper._still(noted) == {child}
        assert reaper._still({child: noted[child] + 1}) == set()  # the same pid, started at another time
    finally:
        tree.kill()
        tree.wait()
        tree.stdout.close()
    assert gone_soon(child) or parent_of(child) is not None
