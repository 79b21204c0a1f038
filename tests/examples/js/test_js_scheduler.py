"""The JavaScript example scheduler (examples/js-scheduler/) against the whole conformance suite.

It needs ``node``. Without it these tests are skipped, unless PAS_REQUIRE_NODE=1 (as in CI,
where scripts/ensure-node.sh installs it first): then a missing node is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from support.bundled import bundled_suite

from conformance.adapters.stdio import StdioAdapter
from conformance.suite.results import Outcome
from conformance.suite.runner import run_suite

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "js-scheduler"
SERVER = EXAMPLE / "server.js"
NODE = shutil.which("node")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def node() -> str:
    """The node executable, or a skip (a failure when PAS_REQUIRE_NODE=1)."""
    if NODE is None:
        reason = "node is not installed (scripts/ensure-node.sh installs it)"
        if os.environ.get("PAS_REQUIRE_NODE") == "1":
            pytest.fail(f"PAS_REQUIRE_NODE=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    return NODE


@pytest.fixture(scope="module")
def suite():
    """The bundled scenarios."""
    scenarios, problems = bundled_suite()
    assert not problems, problems
    return scenarios


def _run(node: str, scenarios, *args: str):
    adapter = StdioAdapter([node, str(SERVER), *args], timeout=10.0, check_messages=True)
    try:
        return run_suite(adapter, scenarios)
    finally:
        adapter.close()


def _not_passed(run, claimed: set[str]) -> list[str]:
    return [f"{r.id}: {r.outcome} {r.failure or r.error}" for r in run.results
            if set(r.profiles) <= claimed and r.outcome is not Outcome.PASSED]


def test_the_js_scheduler_passes_every_scenario_of_both_profiles_it_claims(node, suite):
    run = _run(node, suite)
    assert run.info is not None and run.info.language == "javascript"
    assert set(run.info.profiles) == {"activation", "text"}
    claimed = {s.id for s in suite if set(s.profiles) <= {"activation", "text"}}
    assert len(run.results) == len(suite) and len(claimed) >= 157
    assert _not_passed(run, {"activation", "text"}) == []
    assert {r.id for r in run.results if r.outcome is Outcome.SKIPPED} == {s.id for s in suite} - claimed
    assert run.ok


def test_without_text_it_claims_activation_only_and_text_scenarios_are_skipped(node, suite):
    run = _run(node, suite, "--no-text")
    assert run.info.profiles == ("activation",)
    skipped = {r.id for r in run.results if r.outcome is Outcome.SKIPPED}
    assert skipped == {s.id for s in suite if not set(s.profiles) <= {"activation"}}
    assert _not_passed(run, {"activation"}) == []


def _transcript() -> tuple[list[str], list[str]]:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    block = text.split("<!-- transcript:start -->")[1].split("<!-- transcript:end -->")[0]
    lines = block.splitlines()
    return [line[2:] for line in lines if line.startswith("→ ")], [line[2:] for line in lines if line.startswith("← ")]


def test_it_answers_the_protocol_pages_transcript_like_the_reference_apart_from_its_identity(node):
    requests, expected = _transcript()
    done = subprocess.run([node, str(SERVER)], input="\n".join(requests) + "\n", capture_output=True,
                          text=True, timeout=10, check=False)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and len(answers) == len(expected)
    for answer, want in zip(answers, map(json.loads, expected)):
        if want["id"] == 1:  # hello: who it is differs, and it does not claim the host profile
            assert answer["result"]["profiles"] == ["activation", "text"]
            assert answer["result"]["protocol_version"] == want["result"]["protocol_version"]
        elif not want["ok"]:  # the error's wording is free; its code is not
            assert answer["error"]["code"] == want["error"]["code"]
        else:
            assert answer == want


def test_bad_lines_get_error_answers_and_the_process_carries_on_until_bye(node):
    lines = [b'{"id":1,"cmd":"hello","protocol_version":1,"spec_version":"1.0.0"}', b"not json", b"\xff\xfe",
             b"", b'{"id":2,"cmd":"run","conversation":"c"}', b'{"id":3,"cmd":"start","plugins":[],"host":{},"x":1}',
             b'{"id":4,"cmd":"bye"}', b'{"id":5,"cmd":"hello"}']
    done = subprocess.run([node, str(SERVER)], input=b"\r\n".join(lines) + b"\n", capture_output=True,
                          timeout=10, check=False)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    codes = [a["error"]["code"] if not a["ok"] else "ok" for a in answers]
    assert codes == ["ok", "invalid-json", "invalid-json", "out-of-order", "invalid-request", "ok"]
    assert [a["id"] for a in answers] == [1, None, None, 2, 3, 4]
    assert done.returncode == 0


def test_its_own_node_unit_tests_pass(node):
    done = subprocess.run([node, "--test", str(EXAMPLE / "scheduler.test.js")], capture_output=True, text=True,
                          timeout=30, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
