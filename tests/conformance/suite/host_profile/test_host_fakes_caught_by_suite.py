"""Suite strength for the host profile: `pas run --profile host` catches every broken host fake.

Each fake in tests/fakes/host_broken_*.py gets one classic host bug wrong; running the bundled
suite against it must exit 1 with at least one failed scenario charged to the requirement
the bug breaks, while the reference host passes every host scenario.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conformance.cli.main import main
from conformance.suite.scenario import SUITE_DIR

ROOT = Path(__file__).resolve().parents[4]
FAKES = ROOT / "tests" / "fakes"
BREAKS = {
    "host_broken_shallow_merge": "HOST-CFG-2",
    "host_broken_setup_before_dependency": "HOST-LIFE-1",
    "host_broken_teardown_in_load_order": "HOST-LIFE-2",
    "host_broken_hook_stops": "HOST-HOOK-2",
}


def run_host_suite(impl: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[dict[str, Any]]]:
    """``pas run --impl IMPL --profile host`` from the checkout; the exit code and the JSON lines.

    Only the suite's host folder is loaded: the other scenarios would be deselected anyway.
    """
    monkeypatch.chdir(ROOT)  # python:tests.fakes... is imported from the current directory
    report = tmp_path / "report.jsonl"
    code = main(["run", "--impl", impl, "--profile", "host", "--scenario", str(SUITE_DIR / "host"),
                 "--format", "json", "--output", str(report)])
    return code, [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]


def test_every_host_fake_is_listed_with_the_requirement_it_breaks() -> None:
    assert sorted(p.stem for p in FAKES.glob("host_broken_*.py")) == sorted(BREAKS)


@pytest.mark.parametrize("fake", sorted(BREAKS))
def test_pas_run_with_the_host_profile_fails_each_broken_host_on_its_requirement(fake, tmp_path, monkeypatch) -> None:
    code, lines = run_host_suite(f"python:tests.fakes.{fake}:create", tmp_path, monkeypatch)
    results = [line for line in lines if line["type"] == "result"]
    failed = [r for r in results if r["outcome"] == "failed"]
    assert code == 1
    assert results and all("host" in r["profiles"] for r in results)
    assert [r["id"] for r in results if r["outcome"] == "errored"] == []
    charged = {r["id"] for r in failed if BREAKS[fake] in r["failure"]["breaks"]}
    assert charged, f"{fake}: no failed scenario names {BREAKS[fake]}; failed: {[r['id'] for r in failed]}"


def test_the_reference_host_alone_passes_every_host_scenario(tmp_path, monkeypatch) -> None:
    code, lines = run_host_suite("python:reference_impl.host:create", tmp_path, monkeypatch)
    summary = lines[-1]
    assert code == 0 and summary["type"] == "summary"
    assert summary["counts"]["passed"] == summary["total"] >= 30
