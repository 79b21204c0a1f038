"""SIGTERM during ``pas fuzz``: the summary is still printed, the implementation is gone, exit 143."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from support.process_support import PAS, gone
from support.runner_support import FAKES, ROOT

pytestmark = pytest.mark.slow


def test_sigterm_stops_pas_fuzz_with_its_summary_and_exit_143(tmp_path):
    pytest.importorskip("hypothesis")
    pids = tmp_path / "pids.json"
    env = {**os.environ, "PAS_FAKE_PIDS": str(pids), "PAS_FAKE_DELAY": "0.01", "PYTHONPATH": str(ROOT)}
    impl = f"cmd:{sys.executable} {FAKES / 'hostile_slow.py'}"
    process = subprocess.Popen([*PAS, "fuzz", "--impl", impl, "--max-examples", "100000", "--seed", "1",
                                "--out", str(tmp_path)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    deadline = time.monotonic() + 30
    while not (pids.exists() and pids.stat().st_size) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 143, err
    assert "interrupted" in out
    assert gone([json.loads(pids.read_text())["self"]]) == []
