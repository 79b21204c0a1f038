"""Regular expressions as JSON Schema means them: ECMA-262, through Rust's ``regress`` engine.

JSON Schema 2020-12 (core §6.4) says a ``pattern`` is an ECMA-262 regular expression. Python's
``re``, which jsonschema uses, differs where it matters to PAS: its ``$`` also matches before a
trailing newline (so ``"weather\\n"`` passed ``^[a-z][a-z0-9_]*$``), and its ``\\d``/``\\w``
match any Unicode digit or letter (so ``"١.٠.٠"`` was a version). Both the schema fast path and
the full validator use this module, so they read every pattern the same way, and the way an
ECMA-262 validator in any other language reads it.

The keywords that read patterns are ``pattern``, ``patternProperties`` and (to find the extra
keys) ``additionalProperties``; the validator class here overrides those three. ``unevaluatedProperties``
also reads ``patternProperties`` inside jsonschema; the bundled schemas do not use it (a test pins
their vocabulary), so it is left as is.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import regress

from reference_impl.errors import PasError


class PatternError(PasError, ValueError):
    """A pattern that is not a valid ECMA-262 regular expression (with the ``u`` flag)."""

    def __init__(self, *, pattern: str, reason: str) -> None:
        super().__init__(f"not an ECMA-262 regular expression: {pattern!r} ({reason})")
        self.pattern = pattern
        self.reason = reason


@functools.cache
def compile_pattern(pattern: str) -> regress.Regex:
    """The compiled ECMA-262 form of ``pattern`` (Unicode mode); raises PatternError when it is not one."""
    try:
        return regress.Regex(pattern, "u")
    except regress.RegressError as error:
        raise PatternError(pattern=pattern, reason=str(error)) from None


def search(pattern: str, text: str) -> bool:
    """Whether ``pattern`` matches anywhere in ``text`` (unanchored, as JSON Schema applies it).

    Raises PatternError when ``pattern`` is not valid ECMA-262.
    """
    return compile_pattern(pattern).find(text) is not None


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "string") and not search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator: Any, patterns: dict[str, Any], instance: Any, schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(validator: Any, extra_schema: Any, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "object"):
        return
    properties = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    extras = [key for key in instance if key not in properties and not any(search(p, key) for p in patterns)]
    if validator.is_type(extra_schema, "object"):
        for key in extras:
            yield from validator.descend(instance[key], extra_schema, path=key)
    elif extra_schema is False and extras:
        listed = ", ".join(repr(key) for key in sorted(extras))
        if patterns:
            allowed = ", ".join(repr(p) for p in sorted(patterns))
            yield ValidationError(f"{listed} {'does' if len(extras) == 1 else 'do'} not match any of the regexes: {allowed}")
        else:
            yield ValidationError(f"Additional properties are not allowed ({listed} "
                                  f"{'was' if len(extras) == 1 else 'were'} unexpected)")


@functools.cache
def validator_class() -> Any:
    """Draft 2020-12 with ECMA-262 patterns: a jsonschema validator class (built once per process)."""
    from jsonschema import Draft202012Validator, validators

    return validators.extend(Draft202012Validator, {
        "pattern": _pattern, "patternProperties": _pattern_properties, "additionalProperties": _additional_properties,
    })
