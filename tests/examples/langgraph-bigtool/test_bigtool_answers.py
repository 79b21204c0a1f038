"""examples/langgraph-bigtool/bigtool_answers.py reads bigtool's retrieval answer (`graph.py:38`). No venv needed."""

from __future__ import annotations

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "langgraph-bigtool"
_spec = importlib.util.spec_from_file_location("bigtool_answers", EXAMPLE / "bigtool_answers.py")
assert _spec is not None and _spec.loader is not None
answers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(answers)


def test_the_names_of_an_available_tools_answer() -> None:
    assert answers.retrieved("Available tools: ['weather', \"it's\"]") == ["weather", "it's"]
    assert answers.retrieved("Available tools: []") == []


def test_any_other_text_names_no_tool() -> None:
    for text in (None, "", "Error: ghost is not a valid tool", "Available tools: ['unclosed", "Available tools: [len('x')]"):
        assert answers.retrieved(text) == []
