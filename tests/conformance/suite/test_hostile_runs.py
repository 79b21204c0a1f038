"""Whole runs against hostile implementations (tests/fakes/hostile_*.py): a valid report always, no traceback,
nothing left running, the same verdicts at every pipeline depth, one stop when the same hang or crash repeats."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from support.bundled import bundled_suite
from support.process_support import PAS, gone, json_lines
from support.runner_support import FAKES, ROOT

from conformance.adapters import reaper
from conformance.adapters.implementation import FailureKind
from conformance.adapters.stdio import StdioAdapter
from conformance.cli import main
from conformance.report import text
from conformance.suite.results import Outcome, StopKind
from conformance.suite.runner import RunLimits, run_suite

pytestmark = pytest.mark.slow

ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


def impl(name: str, *args: str) -> str:
    return f"cmd:{sys.executable} {FAKES / f'{name}.py'} {' '.join(args)}".strip()


def argv(name: str, *args: str) -> list[str]:
    return [sys.executable, str(FAKES / f"{name}.py"), *args]


def test_an_implementation_claiming_only_vendor_profiles_has_nothing_to_test(capsys):
    assert main(["run", "--impl", impl("hostile_vendor_profiles"), "-k", "restart"]) == 2
    err = capsys.readouterr().err
    assert "nothing to test" in err and "only vendor profiles (x-acme-routing)" in err


@pytest.mark.parametrize("fmt", ["junit", "json", "text"])
def test_a_lone_surrogate_in_a_text_still_leaves_a_valid_report_and_no_traceback(tmp_path, capsys, fmt):
    report = tmp_path / "report"
    code = main(["run", "--impl", impl("hostile_surrogate", "text"), "-k", "restart-after", "-f", fmt,
                 "-o", str(report)])
    assert code == 1 and "Traceback" not in capsys.readouterr().err
    content = report.read_text(encoding="utf-8")
    if fmt == "junit":
        ET.fromstring(content)
    elif fmt == "json":
        assert [line["type"] for line in map(json.loads, content.splitlines())][-1] == "summary"
    assert "lone surrogate" in content


def test_text_the_implementation_sent_that_utf8_cannot_hold_is_escaped_in_every_report(tmp_path):
    from conformance.report.stream import ReportSink

    scenarios = [s for s in bundled_suite()[0] if s.id == "restart-after-deferred-extend"]
    run = run_suite(_Named("pas-\ud800"), scenarios)
    assert run.info is not None and run.info.name == "pas-\ud800"
    for fmt, read in (("junit", ET.parse), ("json", json_lines), ("text", Path.read_text)):
        sink = ReportSink(fmt, str(tmp_path / fmt))
        assert sink.open() and sink.finish(run)
        read(tmp_path / fmt)
    assert "pas-\\ud800" in (tmp_path / "text").read_text(encoding="utf-8")


class _Named:
    """The reference in-process under another name (any string Python holds, a lone surrogate too)."""

    def __init__(self, name: str) -> None:
        from conformance.adapters.inprocess import reference_adapter
        from reference_impl.model import ImplementationInfo

        self._inner = reference_adapter()
        info = self._inner.hello()
        self._info = ImplementationInfo(name=name, version=info.version, language=info.language, profiles=info.profiles)

    def hello(self):
        return self._info

    def __getattr__(self, name: str):
        return getattr(self._inner, name)


def test_two_runs_writing_one_report_at_once_leave_one_valid_report(tmp_path):
    for fmt, check in (("json", json_lines), ("junit", ET.parse)):
        report = tmp_path / f"report.{fmt}"
        runs = [subprocess.Popen([*PAS, "run", "-k", "restart or extend", "-f", fmt, "-o", str(report)], env=ENV,
                                 cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                for _ in range(3)]
        for run in runs:
            _, err = run.communicate(timeout=120)
            assert run.returncode == 0, err
        check(report)
        assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")] == []


def test_atomic_reports_interleaved_in_one_process_leave_the_last_one_committed(tmp_path):
    from conformance.report.atomic import AtomicText

    path = tmp_path / "report.jsonl"
    first, second = AtomicText(path), AtomicText(path)
    one, two = first.open(), second.open()
    for n in range(100):
        one.write(json.dumps({"from": 1, "n": n}) + "\n")
        two.write(json.dumps({"from": 2, "n": n}) + "\n")
    first.commit()
    assert {line["from"] for line in json_lines(path)} == {1}
    second.commit()
    assert {line["from"] for line in json_lines(path)} == {2} and len(json_lines(path)) == 100


def test_a_report_to_a_fifo_is_written_in_place(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE, text=True)
    assert main(["run", "-k", "restart-twice", "-f", "json", "-o", str(fifo)]) == 0
    out, _ = reader.communicate(timeout=30)
    assert json.loads(out.splitlines()[-1])["type"] == "summary" and fifo.is_fifo()


def test_the_same_hang_in_scenario_after_scenario_stops_the_run_once_listing_what_did_not_run():
    scenarios = [s for s in bundled_suite()[0] if sum(step.event.cmd == "run" for step in s.steps) >= 2][:8]
    with StdioAdapter(argv("hostile_hang_mid_scenario"), timeout=3.0) as adapter:  # 0.5 s: a start-up at load 5 timed out
        run = run_suite(adapter, scenarios, limits=RunLimits(max_repeats=3))
    outcomes = [r.outcome for r in run.results]
    assert outcomes == [Outcome.ERRORED] * 3 + [Outcome.SKIPPED] * 5
    assert {r.error.kind for r in run.results[:3]} == {FailureKind.TIMEOUT}
    assert run.stop is not None and run.stop.kind is StopKind.REPEATED
    assert run.stop.message.startswith("the same failure in 3 scenarios in a row")
    report = text.render(run)
    assert report.count("kind     timeout") == 1 and "the same error in 3 scenarios" in report  # one block
    assert "not run: " + ", ".join(s.id for s in scenarios[3:]) in report


def test_the_same_crash_gives_the_same_verdicts_at_pipeline_depth_1_and_64():
    """hostile_batched_crash rejects disable and dies on restart, answers written a read at a time."""
    scenarios = [s for s in bundled_suite()[0] if not s.is_host
                 and {step.event.cmd for step in s.steps} & {"restart", "disable"}]
    verdicts = []
    for depth in ("1", "64"):
        with StdioAdapter(argv("hostile_batched_crash", depth)) as adapter:
            run = run_suite(adapter, scenarios, limits=RunLimits(max_repeats=len(scenarios) + 1))
        verdicts.append({r.id: (r.outcome, r.error.kind if r.error else None, r.error.step if r.error else None,
                                r.failure.index if r.failure else None) for r in run.results})
    assert verdicts[0] == verdicts[1]
    assert {v[0] for v in verdicts[0].values()} >= {Outcome.FAILED, Outcome.ERRORED}


def test_scenarios_refused_one_after_another_run_in_one_process_and_crashed_ones_each_in_a_fresh_one():
    scenarios = [s for s in bundled_suite()[0] if s.profiles == ("activation",) and s.steps[0].event.cmd == "run"][:5]
    for name, kept in (("hostile_error", True), ("hostile_crash", False)):
        pids: list[int | None] = []
        with StdioAdapter(argv(name)) as adapter:
            run = run_suite(adapter, scenarios, limits=RunLimits(max_repeats=len(scenarios) + 1),
                            on_result=lambda _result, seen=pids, running=adapter: seen.append(running.pid))
        assert [r.outcome for r in run.results] == [Outcome.ERRORED] * len(scenarios)
        assert (len(set(pids)) == 1 and None not in pids) if kept else pids == [None] * len(scenarios), (name, pids)


def test_the_same_error_in_many_scenarios_is_shown_once_and_suggests_x(capsys):
    assert main(["run", "--impl", impl("hostile_extra_field"), "-k", "activate", "--max-repeats", "1000"]) == 1
    out = capsys.readouterr().out
    assert out.count("/result/block/priority: unknown field(s) 'priority'") == 1
    assert "the same error in " in out and "-x (--fail-fast)" in out


def test_what_was_sent_is_shown_whole_however_long():
    from conformance.suite.results import ErrorDetail, ScenarioResult

    event = {"cmd": "host-load", "config": {"schema": "x" * 5000}}
    result = ScenarioResult(id="s", title="t", outcome=Outcome.ERRORED, error=ErrorDetail(
        kind=FailureKind.SCHEMA, reason="r", step=0, event=event))
    assert json.dumps(event, ensure_ascii=False, separators=(", ", ": ")) in text.error_text(result)


def test_sigterm_then_sigkill_with_a_long_timeout_leaves_a_report_and_nothing_running(tmp_path):
    """A CI cancel: SIGTERM, then SIGKILL, while the implementation hangs (its timeout is ten minutes)."""
    report, pids = tmp_path / "report.xml", tmp_path / "daemon.pids"
    process = subprocess.Popen([*PAS, "run", "--impl", impl("hostile_setsid_clean_env", str(pids), "hang"),
                                "--timeout", "600", "-k", "restart", "-f", "junit", "-o", str(report)],
                               env=ENV, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    implementation = _wait_for_children(process.pid)
    while not (pids.exists() and pids.read_text()):
        time.sleep(0.05)
    time.sleep(0.5)  # it hangs on its first run now
    process.send_signal(signal.SIGTERM)
    # SIGKILL once the report is whole (at most 30 s: far less than the 600 s timeout it must not wait out);
    # a fixed half second failed on a machine at load 5, where the report took longer to write.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and "</testsuites>" not in (report.read_text(encoding="utf-8") if report.exists() else ""):
        time.sleep(0.05)
    process.kill()
    process.communicate(timeout=30)
    ET.parse(report)
    assert "interrupted by SIGTERM" in report.read_text(encoding="utf-8")
    assert gone([*implementation, *map(int, pids.read_text().split())]) == []


def test_a_runner_killed_outright_takes_its_implementation_with_it(tmp_path):
    process = subprocess.Popen([*PAS, "run", "--impl", impl("hostile_hang"), "-k", "restart", "--timeout", "600"],
                               env=ENV, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    implementation = _wait_for_children(process.pid)
    process.kill()
    process.wait(timeout=30)
    assert gone(implementation) == []


def _wait_for_children(pid: int, within: float = 30.0) -> list[int]:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if found := list(reaper.snapshot(pid)):
            return found
        time.sleep(0.05)
    raise AssertionError("the implementation never started")
