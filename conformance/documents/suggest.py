"""Did-you-mean: the closest known name for a misspelt key, value or command.

Used for schema problems (an unknown field in a manifest, a value outside an enum such as a
host config strategy) and for unknown ``pas`` commands. Pure standard library (difflib).
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from collections.abc import Iterable, Iterator
from typing import Any

from reference_impl.problems import Problem

_UNKNOWN_FIELDS = re.compile(r"^unknown field\(s\) '([^']*)'")
_ENUM = re.compile(r"^'([^']*)' is not allowed here; use one of (.*)$")
_QUOTED = re.compile(r"'([^']*)'")


def closest(word: str, choices: Iterable[str], *, cutoff: float = 0.6) -> str | None:
    """The choice most like ``word`` (difflib ratio of at least ``cutoff``), or None."""
    matches = difflib.get_close_matches(word, list(choices), n=1, cutoff=cutoff)
    return matches[0] if matches and matches[0] != word else None


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` when a choice is close to ``word``, else an empty string."""
    match = closest(word, choices)
    return f"; did you mean '{match}'?" if match else ""


def _property_names(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        properties = node.get("properties")
        if isinstance(properties, dict):
            yield from (key for key in properties if isinstance(key, str))
        for value in node.values():
            yield from _property_names(value)
    elif isinstance(node, list):
        for value in node:
            yield from _property_names(value)


@functools.cache
def schema_property_names(schema_name: str) -> frozenset[str]:
    """Every property name declared anywhere in a bundled schema (the words a key may be)."""
    from conformance.documents.schemas import schema

    return frozenset(_property_names(schema(schema_name)))


def with_hint(problem: Problem, schema_name: str) -> Problem:
    """``problem`` with a did-you-mean added when it names an unknown field or a value outside an enum."""
    if problem.code != "schema" or "did you mean" in problem.message:
        return problem
    if match := _UNKNOWN_FIELDS.match(problem.message):
        hint = did_you_mean(match.group(1), schema_property_names(schema_name))
    elif match := _ENUM.match(problem.message):
        hint = did_you_mean(match.group(1), _QUOTED.findall(match.group(2)))
    else:
        return problem
    return dataclasses.replace(problem, message=problem.message + hint) if hint else problem


def check_with_hints(schema_name: str, doc: Any) -> list[Problem]:
    """:func:`conformance.documents.schemas.check_against`, with did-you-mean hints added."""
    from conformance.documents.schemas import check_against

    return [with_hint(problem, schema_name) for problem in check_against(schema_name, doc)]
