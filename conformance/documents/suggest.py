"""Did-you-mean: the closest known name for a misspelt key, value or command.

Used for schema problems (an unknown field in a manifest, a value outside an enum such as a
host config strategy), built from the jsonschema error's own fields, and for unknown ``pas``
commands. Pure standard library (difflib).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from reference_impl.problems import Problem


def closest(word: str, choices: Iterable[str], *, cutoff: float = 0.6) -> str | None:
    """The choice most like ``word`` (difflib ratio of at least ``cutoff``), or None."""
    import difflib  # only for a word that matched nothing: not imported on the way of a valid document

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


def hint(schema_name: str, error: Any) -> str:
    """A did-you-mean for one jsonschema error of ``schema_name``, read from the error's own fields, or "".

    An unknown key (``additionalProperties``) is compared with the keys its object declares,
    then with every key the schema declares; a string outside an ``enum`` with the allowed
    strings. Other errors get no hint.
    """
    from conformance.documents.schemas import unknown_keys

    if error.validator == "additionalProperties" and isinstance(error.instance, Mapping):
        extra = unknown_keys(error)
        if not extra:
            return ""
        declared = error.schema.get("properties", {}) if isinstance(error.schema, Mapping) else {}
        return did_you_mean(extra[0], declared) or did_you_mean(extra[0], schema_property_names(schema_name))
    if error.validator == "enum" and isinstance(error.instance, str):
        return did_you_mean(error.instance, [value for value in error.validator_value if isinstance(value, str)])
    return ""


def check_with_hints(schema_name: str, doc: Any) -> list[Problem]:
    """:func:`conformance.documents.schemas.check_against`, with did-you-mean hints added."""
    from conformance.documents.schemas import check_against

    return check_against(schema_name, doc, hint=functools.partial(hint, schema_name))
