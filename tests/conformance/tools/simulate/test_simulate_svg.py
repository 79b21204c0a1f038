"""``pas simulate --format svg``: the run x plugin timeline, drawn from the observations."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from conformance.cli.main import main

SVG = "{http://www.w3.org/2000/svg}"
SCRIPT = "run; activate weather 2; run; run team; activate note 3 in team; run team; run"


def _texts(root: ET.Element) -> list[str]:
    return [element.text or "" for element in root.iter(f"{SVG}text")]


def _cells(root: ET.Element, state: str) -> int:
    return sum(text == state for text in _texts(root))


def test_simulate_draws_a_row_per_plugin_and_a_column_per_run(tmp_path, capsys):
    out = tmp_path / "runs.svg"
    assert main(["simulate", "--format", "svg", "--output", str(out), SCRIPT]) == 0
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    texts = _texts(root)
    # Two conversations: each column is headed by its conversation and its run there.
    assert [t for t in texts if t.startswith(("main ", "team "))] == ["main 1", "main 2", "team 1", "team 2", "main 3"]
    assert {"weather", "note", "basic", "plugin_activation"} <= set(texts)
    assert _cells(root, "active") == 3  # weather in default 2 and 3, note in team 2
    assert _cells(root, "always awake") + _cells(root, "sleeping") + 3 == 14 * 5  # 14 plugins x 5 runs
    calls = [t for t in texts if t.startswith("activate_plugin")]
    assert calls == ["activate_plugin('weather', rounds=2) → activated", "activate_plugin('note', rounds=3) → activated"]


def test_the_states_drawn_are_the_ones_the_table_prints(capsys):
    assert main(["simulate", "--format", "svg", "run; activate weather 1; run; run"]) == 0
    root = ET.fromstring(capsys.readouterr().out)
    headings = [t for t in _texts(root) if t.startswith("run ")]
    assert headings == ["run 1", "run 2", "run 3"]
    assert _cells(root, "active") == 1 and "1 left · hint" in _texts(root)
