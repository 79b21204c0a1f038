"""PAS answers read off what LangGraph bigtool 0.0.3's `retrieve_tools` tells the model.

A retrieval's answer is one ToolMessage, `Available tools: [...]`: the Python list repr of the names
of the ids the retrieval returned (`langgraph_bigtool/graph.py:25-42`, written at `graph.py:38`).
Those ids are exactly what `select_tools` hands the `selected_tool_ids` reducer (`graph.py:112-113`),
so the answer's names are both what the search found and what it says it selected.
"""

from __future__ import annotations

import ast
import re

AVAILABLE = re.compile(r"Available tools: (?P<names>\[.*\])", re.DOTALL)


def retrieved(text: str | None) -> list[str]:
    """The names in an `Available tools: [...]` answer; none for any other text (the answer names no tool)."""
    match = AVAILABLE.fullmatch((text or "").strip())
    if match is None:
        return []
    try:
        names = ast.literal_eval(match["names"])
    except (ValueError, SyntaxError):
        return []
    return [str(name) for name in names] if isinstance(names, list) else []
