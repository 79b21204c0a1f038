"""The "certainly valid" check in front of jsonschema: ``jsonschema-rs`` (Rust, draft 2020-12).

Most documents are valid (a CI run's manifests, an implementation's protocol messages), and for
them jsonschema is the slowest part of checking them (about 75x slower than jsonschema-rs on a
manifest). So :func:`conformance.documents.schemas.check_against` asks this module first and runs
jsonschema, whose errors PAS turns into its messages (pointer, validator, did-you-mean), only for a
document this one does not call valid. A verdict is therefore always jsonschema's; this module can
make a run faster, never different, provided it never calls valid what jsonschema rejects. To keep
it so it defers (answers False, "ask jsonschema") on:

- a root whose ``$schema`` is not draft 2020-12, a schema jsonschema-rs cannot compile (a pattern
  its regex engine does not take, a ``$ref`` it cannot resolve), and a schema with a pattern that
  is not ECMA-262 (Rust's engine takes some that ECMA-262 refuses, such as ``(?P<name>...)``);
- an instance jsonschema-rs cannot read (a mapping with a key that is not a string, bytes ...);
- ``format``: jsonschema-rs checks each format with jsonschema's own checker, exactly when
  jsonschema would (for the URI formats, only when a library jsonschema checks them with is
  installed: :data:`FORMAT_LIBRARIES`), so that a valid document does not import jsonschema.

Patterns: jsonschema-rs translates ECMA-262 to Rust's regex (``$`` only at the very end, ``\\d`` and
``\\w`` ASCII, ``\\s`` the ECMA set); it reads ``\\b`` over Unicode letters, where ECMA-262 reads
ASCII ones, so the bundled schemas use no ``\\b`` (tests/conformance/documents/test_bundled_schemas.py
pins it, and checks every bundled pattern with both engines).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
# The libraries jsonschema (4.x, jsonschema/_format.py) checks these formats with; with none of
# them installed it checks nothing. A test compares this table with jsonschema's own imports.
FORMAT_LIBRARIES: dict[str, tuple[str, ...]] = {
    "uri": ("rfc3987", "rfc3986_validator"),
    "uri-reference": ("rfc3987", "rfc3986_validator"),
    "iri": ("rfc3987", "rfc3987_syntax"),
    "iri-reference": ("rfc3987", "rfc3987_syntax"),
}
#: The formats JSON Schema 2020-12 defines (validation §7.3): each is checked as jsonschema checks it.
FORMATS = (
    "date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6",
    "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template", "json-pointer",
    "relative-json-pointer", "regex",
)


@functools.cache
def format_check(fmt: str) -> Callable[[str], bool] | None:
    """How jsonschema checks strings of format ``fmt``: a predicate, or None when it does not check it."""
    import importlib.util

    libraries = FORMAT_LIBRARIES.get(fmt)
    if libraries is not None and not any(importlib.util.find_spec(name) for name in libraries):
        return None
    from jsonschema import Draft202012Validator

    checker = Draft202012Validator.FORMAT_CHECKER
    return functools.partial(_conforms, checker, fmt) if fmt in checker.checkers else None


def _conforms(checker: Any, fmt: str, instance: str) -> bool:
    return bool(checker.conforms(instance, fmt))


def _as_jsonschema_checks(fmt: str) -> Callable[[str], bool]:
    """A format predicate for jsonschema-rs that asks :func:`format_check` at its first string."""

    def check(instance: str) -> bool:
        test = format_check(fmt)
        return test is None or test(instance)

    return check


class FastPath:
    """The "certainly valid" check over a set of schemas (contents by URI; a ``$ref`` to another
    URI is read from the set when first needed). One jsonschema-rs validator per URI, built at
    its first use: build one FastPath per set and keep it.
    """

    def __init__(self, schemas: Mapping[str, Any]) -> None:
        self._schemas = schemas
        self._validators: dict[str, Any] = {}

    def certainly_valid(self, uri: str, instance: Any) -> bool:
        """Whether ``instance`` certainly satisfies the schema at ``uri``; False means "ask jsonschema".

        Raises KeyError when no schema has that URI.
        """
        check = self._validators.get(uri)
        if check is None:
            check = self._validators[uri] = self._build(uri)
        try:
            return bool(check(instance))
        except (ValueError, TypeError, OverflowError, RecursionError):  # an instance it cannot read
            return False

    def _build(self, uri: str) -> Callable[[Any], bool]:
        """``is_valid`` of the compiled schema at ``uri``, or a check that always defers."""
        import jsonschema_rs

        root = self._schemas[uri]
        if isinstance(root, dict) and root.get("$schema", DRAFT_2020_12) != DRAFT_2020_12 or not _ecma_patterns(root):
            return _never
        try:
            validator = jsonschema_rs.Draft202012Validator(
                root, retriever=self._retrieve, base_uri=uri if uri and isinstance(root, dict) and "$id" not in root else None,
                validate_formats=True, formats={fmt: _as_jsonschema_checks(fmt) for fmt in FORMATS})
        except (ValueError, jsonschema_rs.ReferencingError):  # a schema it cannot compile: jsonschema decides
            return _never
        return validator.is_valid

    def _retrieve(self, uri: str) -> Any:
        contents = self._schemas[uri]
        if not _ecma_patterns(contents):
            raise ValueError(f"{uri} has a pattern that is not ECMA-262")
        return contents


def _ecma_patterns(schema: Any) -> bool:
    """Whether every ``pattern`` and ``patternProperties`` key in ``schema`` is ECMA-262 (a string under a
    key named ``pattern`` anywhere counts: a false alarm only makes the fast path defer)."""
    from conformance.documents.ecma import PatternError, compile_pattern

    stack = [schema]
    try:
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                if isinstance(node.get("pattern"), str):
                    compile_pattern(node["pattern"])
                if isinstance(node.get("patternProperties"), dict):
                    for pattern in node["patternProperties"]:
                        compile_pattern(pattern)
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
    except PatternError:
        return False
    return True


def _never(instance: Any) -> bool:
    return False
