"""examples/agent-framework/maf_answers.py reads MAF's loader answers into PAS answers, and states nothing MAF did not.

The texts are MAF 1.23.0's own sentences, as FACTS-CHECKED.md records them (row 15, 17) with their
lines in agent_framework/_mcp.py. Standard library only: no MAF venv needed.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "agent-framework"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("maf_answers", EXAMPLE / "maf_answers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


answers = _load()
AS_ASKED = {"load_tool": "@load"}


def results(asked: list[str], text: str | None) -> list[tuple[str, str]]:
    found = answers.name_results(asked, text, lambda name: AS_ASKED.get(name, name))
    return [(r["name"], r["outcome"]) for r in found]


def test_a_mixed_batch_gives_each_name_its_first_lines_outcome() -> None:
    text = "\n".join([
        "Loaded MCP tool 'weather'. It is available on the next model iteration.",
        "MCP tool 'nope' is not available. Available tools: weather, calendar, clock.",
        "Loaded MCP tool 'calendar'. It is available on the next model iteration.",
        "MCP tool 'weather' is already queued to load.",
        "MCP tool 'clock' is already available.",
    ])
    assert results(["weather", "nope", "calendar", "clock"], text) == [
        ("weather", "loaded"), ("nope", "not_found"), ("calendar", "loaded"), ("clock", "already_loaded")]


def test_every_unload_sentence_is_read() -> None:
    text = "\n".join([
        "MCP tool 'clock' is configured in always_load and cannot be unloaded.",
        "MCP loader tool 'load_tool' cannot be unloaded.",
        "MCP tool 'calendar' is not currently loaded.",
        "MCP tool 'nope' is not available. Available tools: weather, calendar, clock.",
        "Unloaded MCP tool 'weather'. It will be removed on the next model iteration.",
    ])
    assert results(["clock", "@load", "calendar", "nope", "weather"], text) == [
        ("clock", "refused"), ("@load", "refused"), ("calendar", "not_loaded"), ("nope", "not_found"),
        ("weather", "unloaded")]


def test_a_name_no_line_speaks_of_is_unstated() -> None:
    assert results(["weather"], "Error: Function failed.") == [("weather", "unstated")]
    assert results(["weather"], None) == [("weather", "unstated")]
    assert results(["weather"], "MCP tool 'weather' is already queued to load.") == [("weather", "unstated")]


def test_a_listing_is_read_by_remote_name_with_its_loaded_flag() -> None:
    text = json.dumps([{"name": "srv_weather", "remote_name": "weather", "loaded": True},
                       {"name": "calendar", "remote_name": "calendar", "loaded": False}])
    assert answers.listed(text) == [{"name": "weather", "loaded": True}, {"name": "calendar", "loaded": False}]
    assert answers.listed("Error: Function failed.") == []
