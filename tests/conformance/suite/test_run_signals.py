"""SIGINT, SIGTERM and SIGHUP during ``pas run``: the report so far is written and marked, the
implementation (and the helper process it started in its own session) is gone, and the exit
status is 128 + the signal."""

from __future__ import annotations

import json
import signal

import pytest
from support.process_support import gone, json_lines, start_slow_run, wait_for_lines

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name)
def test_a_signal_writes_the_streamed_report_so_far_and_exits_128_plus_the_signal(tmp_path, signum):
    process, report, pids = start_slow_run(tmp_path, "-f", "json", "-k", "extend")
    wait_for_lines(report, 1)
    process.send_signal(signum)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 128 + signum, err
    lines = json_lines(report)
    summary = lines[-1]
    assert summary["type"] == "summary" and summary["interrupted"] is True
    assert summary["stopped"] == {"kind": "signal", "message": f"interrupted by {signum.name}", "signal": int(signum)}
    assert summary["exit_code"] == 128 + signum
    results = lines[:-1]
    assert results[0]["outcome"] == "passed"
    assert results[-1]["outcome"] == "skipped" and results[-1]["reason"] == f"not run: interrupted by {signum.name}"
    assert f"pas run: interrupted by {signum.name}" in err
    started = json.loads(pids.read_text())
    assert gone([started["self"]]) == []


def test_a_signal_during_a_text_report_still_writes_the_whole_report(tmp_path):
    process, report, pids = start_slow_run(tmp_path, "-f", "text", "-k", "extend")
    wait_for_lines(pids, 0)  # the implementation is up
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=30)
    text = report.read_text(encoding="utf-8")
    assert process.returncode == 143, err
    assert "(stopped: interrupted by SIGTERM)" in text.splitlines()[-1]
    assert gone([json.loads(pids.read_text())["self"]]) == []


def test_the_helper_process_the_implementation_started_in_its_own_session_is_gone_too(tmp_path):
    process, report, pids = start_slow_run(tmp_path, "-f", "json", "-k", "extend")
    wait_for_lines(report, 1)
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=30)
    started = json.loads(pids.read_text())
    assert gone([started["self"], started["child"]]) == []
