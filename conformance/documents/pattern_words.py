"""The patterns of the bundled schemas in words, and a value near the one given that would fit.

A schema's ``pattern`` is exact but not what a plugin author reads easily
(``^[A-Za-z_][A-Za-z0-9_]*$`` for ``author: Jane Doe``). A problem message says what the pattern
asks for and, when one is near, a value that matches it (``'Jane_Doe'``). A pattern not listed
here keeps the pattern itself in the message.
"""

from __future__ import annotations

import re

# Each pattern the bundled schemas use, as a reader would say it (tests/conformance/documents holds
# this table to the schemas: a new pattern without words fails there).
PATTERN_WORDS: dict[str, str] = {
    "^[A-Za-z_][A-Za-z0-9_]*$": "an identifier (letters, digits and underscores, not starting with a digit; "
                                "no spaces or hyphens)",
    "^[a-z][a-z0-9_]*$": "a lower-case identifier (lower-case letters, digits and underscores, starting with a letter)",
    "^[a-z0-9]+(?:-[a-z0-9]+)*$": "kebab-case (lower-case letters and digits, words joined by single hyphens)",
    "^[a-z0-9]+(-[a-z0-9]+)*$": "kebab-case (lower-case letters and digits, words joined by single hyphens)",
    "^x-[a-z0-9-]+$": "an extension name: x- followed by lower-case letters, digits and hyphens",
    "^(ACT|TXT|HOST)-[A-Z]+-[0-9]+$": "a requirement ID such as ACT-ELIG-3",
    "^(ACT|TXT|HOST|DISC)-[A-Z]+-[0-9]+$": "a requirement ID such as ACT-ELIG-3 or DISC-LOAD-1",
    "^[^@]": "a name that does not start with @ (the loader tokens @load, @search ... are not tool names)",
    "^[0-9]+[.][0-9]+$": "a spec version such as 1.0 or 1.1, quoted (unquoted, 1.10 would read as the number 1.1)",
    "^host_[a-z_]+$": "host_ followed by lower-case letters and underscores",
    "^[a-z_]+$": "lower-case letters and underscores",
}


def describe(pattern: str) -> str | None:
    """What ``pattern`` asks for, in words, or None for a pattern without words."""
    return PATTERN_WORDS.get(pattern)


def _candidates(value: str) -> list[str]:
    words = re.sub(r"[^A-Za-z0-9]+", " ", value).split()
    if not words:
        return []
    snake = "_".join(words)
    return [snake, snake.lower(), "-".join(words).lower(), f"_{snake}", f"_{snake.lower()}"]


def fitting(pattern: str, value: str) -> str | None:
    """A value made from ``value``'s words that matches ``pattern`` (``Jane Doe`` -> ``Jane_Doe``), or None."""
    from conformance.documents.ecma import search

    return next((c for c in _candidates(value) if c and c != value and search(pattern, c)), None)
