"""Badges: the shields.io endpoint JSON and the SVG, from a run and from a saved JSON-lines report."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from conformance import report
from conformance.cli.main import main
from conformance.report import badge, badge_svg, jsonl
from conformance.suite.results import Outcome, RunResult, ScenarioResult, Summary
from reference_impl.model import ImplementationInfo, Profile

INFO = ImplementationInfo(name="demo", version="1.0.0", language="rust", profiles=(Profile.ACTIVATION, Profile.TEXT))


def _run(outcomes: list[tuple[str, tuple[str, ...]]], *, info=INFO, profiles=(Profile.ACTIVATION, Profile.TEXT),
         interrupted=False) -> RunResult:
    results = tuple(ScenarioResult(id=f"s{i}", title=f"scenario {i}", outcome=Outcome(o), profiles=p)
                    for i, (o, p) in enumerate(outcomes))
    return RunResult(info=info, results=results, summary=Summary.of(results, {}, profiles), profiles=profiles,
                     interrupted=interrupted)


ACT, TXT = (Profile.ACTIVATION,), (Profile.ACTIVATION, Profile.TEXT)


def test_the_endpoint_json_has_exactly_the_shields_fields_with_counts_per_profile():
    doc = json.loads(badge.render(_run([("passed", ACT)] * 3 + [("passed", TXT)] * 2)))
    assert doc == {"schemaVersion": 1, "label": "PAS", "message": "activation 3/3 · text 2/2", "color": "brightgreen"}


def test_with_one_profile_under_test_the_message_is_passed_over_claimed():
    doc = json.loads(badge.render(_run([("passed", ACT), ("failed", ACT)], profiles=("activation",))))
    assert doc["message"] == "1/2 passed" and doc["color"] == "yellow"


def test_skipped_scenarios_are_not_claimed_and_xfailed_ones_are_claimed_but_not_passed():
    run = _run([("passed", ACT), ("xfailed", ACT), ("stale", ACT), ("skipped", TXT)])
    assert json.loads(badge.render(run))["message"] == "2/3 passed"


@pytest.mark.parametrize(("passed", "claimed", "color"), [
    (10, 10, "brightgreen"), (9, 10, "green"), (8, 10, "yellowgreen"), (5, 10, "yellow"), (1, 10, "orange"),
    (0, 10, "red"), (0, 0, "red")])
def test_the_colour_follows_the_pass_rate(passed, claimed, color):
    assert badge.color_for(passed, claimed) == color


def test_a_failed_hello_is_an_error_badge_not_a_count():
    doc = json.loads(badge.render(_run([("errored", ACT)], info=None)))
    assert doc["message"] == "hello failed" and doc["isError"] is True and doc["color"] == "red"


def test_an_interrupted_run_and_a_run_with_nothing_claimed_say_so():
    assert json.loads(badge.render(_run([("passed", ACT)], interrupted=True)))["message"] == "interrupted"
    assert json.loads(badge.render(_run([("skipped", TXT)])))["message"] == "no scenarios"


def test_the_svg_is_well_formed_self_contained_and_escapes_its_text():
    hostile = badge.Badge(label="PAS <&>", message='"1/2" passed', color="orange")
    text = badge.svg(hostile)
    root = ET.fromstring(text)
    assert root.tag.endswith("svg") and root.get("aria-label") == 'PAS <&>: "1/2" passed'
    assert "href" not in text and "<script" not in text and "@import" not in text
    assert badge.COLORS["orange"] in text


def test_a_longer_message_makes_a_wider_badge():
    short = ET.fromstring(badge.svg(badge.Badge(label="PAS", message="1/1 passed", color="green")))
    long = ET.fromstring(badge.svg(badge.Badge(label="PAS", message="activation 125/125 · text 32/32", color="green")))
    assert int(long.get("width")) > int(short.get("width")) + 100


def test_the_badge_svg_format_renders_the_same_badge_as_svg():
    run = _run([("passed", ACT)], profiles=("activation",))
    assert "1/1 passed" in badge_svg.render(run) and ET.fromstring(badge_svg.render(run)) is not None


@pytest.fixture
def badge_formats(monkeypatch):
    """Register the badge formats as conformance/report/__init__.py will (see the report)."""
    monkeypatch.setattr(report, "FORMATS", (*report.FORMATS, "badge", "badge-svg"))
    monkeypatch.setattr(report, "_MODULES", {**report._MODULES, "badge": "badge", "badge-svg": "badge_svg"})


def test_pas_run_format_badge_writes_the_endpoint_json(badge_formats, tmp_path):
    out = tmp_path / "pas-badge.json"
    assert main(["run", "-k", "elig-matrix", "--profile", "activation", "--format", "badge", "--output", str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["schemaVersion"] == 1 and doc["color"] == "brightgreen" and doc["message"].endswith(" passed")


def test_pas_run_format_badge_svg_writes_the_svg(badge_formats, tmp_path):
    out = tmp_path / "pas-badge.svg"
    assert main(["run", "-k", "elig-matrix", "--format", "badge-svg", "--output", str(out)]) == 0
    assert ET.parse(out).getroot().tag.endswith("svg")


def test_pas_report_badge_picks_svg_or_json_from_the_output_name(tmp_path, capsys):
    results = tmp_path / "results.jsonl"
    results.write_text(jsonl.render(_run([("passed", ACT), ("failed", TXT)])), encoding="utf-8")
    assert main(["report", "badge", str(results), "--output", str(tmp_path / "b.svg")]) == 0
    assert ET.parse(tmp_path / "b.svg").getroot().get("aria-label") == "PAS: activation 1/1 · text 0/1"
    assert main(["report", "badge", str(results)]) == 0
    assert json.loads(capsys.readouterr().out)["message"] == "activation 1/1 · text 0/1"
