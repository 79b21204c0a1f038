"""Values shown to people, cut to a readable length: the one place reports and messages shorten them.

A report or a problem message may quote a value an implementation or a file gave: a megabyte
of text, a hostile object whose ``repr`` raises. These helpers turn any value into a bounded,
printable excerpt.
"""

from __future__ import annotations

import json
from typing import Any

ELLIPSIS = "..."


def cut(text: str, limit: int) -> str:
    """``text`` itself when it fits in ``limit`` characters, else its start and ``...``."""
    return text if len(text) <= limit else text[: max(limit - len(ELLIPSIS), 0)] + ELLIPSIS


def excerpt_json(value: Any, limit: int) -> str:
    """``value`` as compact JSON (its ``repr`` when it is no JSON), cut to ``limit`` characters."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    except (TypeError, ValueError):
        text = excerpt_repr(value, limit)
    return cut(text, limit)


def excerpt_repr(value: Any, limit: int) -> str:
    """``repr(value)`` cut to ``limit`` characters; a ``repr`` that raises is described instead."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a hostile __repr__ must not break the report
        text = f"<{type(value).__name__} that cannot be shown>"
    return cut(text, limit)


def excerpt_str(value: Any, limit: int) -> str:
    """``str(value)`` (an exception's message, say) cut to ``limit`` characters, safely like :func:`excerpt_repr`."""
    try:
        text = str(value)
    except Exception:  # noqa: BLE001 - a hostile __str__ must not break the report
        text = f"<{type(value).__name__} that cannot be shown>"
    return cut(text, limit)
