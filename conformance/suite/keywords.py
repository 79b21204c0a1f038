"""The ``-k`` keyword expression of ``pas run``: words combined with not, and, or and parentheses.

A word matches when it occurs, case-insensitively, in the text (a scenario's id and
title); ``not`` binds tighter than ``and``, which binds tighter than ``or``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from reference_impl.errors import PasError


class BadKeyword(PasError, ValueError):
    """A ``-k`` expression that does not parse."""

    def __init__(self, *, expression: str, reason: str) -> None:
        self.expression = expression
        self.reason = reason
        super().__init__(f"-k {expression!r}: {reason}")


Predicate = Callable[[str], bool]


class _KeywordParser:
    """Recursive descent over ``-k`` tokens: or < and < not < (group) | word."""

    def __init__(self, expression: str) -> None:
        self.expression = expression
        self.tokens = re.findall(r"\(|\)|[^\s()]+", expression)
        self.position = 0

    def peek(self) -> str | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise BadKeyword(expression=self.expression, reason="unexpected end of expression")
        self.position += 1
        return token

    def either(self) -> Predicate:
        return self._joined("or", self.both, any)

    def both(self) -> Predicate:
        return self._joined("and", self.negated, all)

    def _joined(self, word: str, part: Callable[[], Predicate],
                combine: Callable[[Iterable[bool]], bool]) -> Predicate:
        """``part (word part)*``, true when ``combine`` (any or all) says so."""
        parts = [part()]
        while self.peek() == word:
            self.take()
            parts.append(part())
        return lambda text: combine(p(text) for p in parts)

    def negated(self) -> Predicate:
        token = self.take()
        if token == "not":
            inner = self.negated()
            return lambda text: not inner(text)
        if token == "(":
            inner = self.either()
            if self.take() != ")":
                raise BadKeyword(expression=self.expression, reason="missing ')'")
            return inner
        if token in (")", "and", "or"):
            raise BadKeyword(expression=self.expression, reason=f"unexpected {token!r}")
        word = token.lower()
        return lambda text: word in text


def keyword_matcher(expression: str) -> Predicate:
    """A predicate for ``-k``: words match as case-insensitive substrings, with not/and/or/().

    Raises BadKeyword when the expression is malformed.
    """
    parser = _KeywordParser(expression)
    match = parser.either()
    if parser.peek() is not None:
        raise BadKeyword(expression=expression, reason=f"unexpected {parser.peek()!r}")
    return lambda text: match(text.lower())
