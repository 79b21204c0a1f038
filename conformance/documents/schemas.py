"""The bundled JSON Schemas: one store (a ``referencing`` registry), loaded once, cross-referenced, and
turned into Problems on failure. The fast path (:mod:`conformance.documents.fastschema`, jsonschema-rs) and
the full validator (jsonschema) share this store and read patterns the same way (ECMA-262; for jsonschema
through :mod:`conformance.documents.ecma`)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from conformance.documents.loader import YamlDocument
from reference_impl.problems import Problem, SourceLocation, pointer_join, pointer_of
from reference_impl.spec_files import spec_dir

SCHEMA_NAMES = ("plugin-manifest", "host-config", "scenario", "requirements", "semantics")


#: Every bundled schema's ``$id`` is this base plus its path under spec/schemas/, ``.json`` for ``.yaml``
#: (a test pins it): so the fast path can read one schema file without reading them all.
SCHEMA_BASE = "https://plugin-activation-spec.org/schemas/1.0/"


@functools.cache
def _paths() -> dict[str, Path]:
    """Every bundled schema file by the ``$id`` its path gives it (see :data:`SCHEMA_BASE`)."""
    root = spec_dir() / "schemas"
    return {SCHEMA_BASE + path.relative_to(root).as_posix().removesuffix(".yaml") + ".json": path
            for path in sorted(root.rglob("*.schema.yaml"))}


@functools.cache
def _read(path: Path) -> Any:
    """The contents of one schema file, read once (the lazy store and the whole store share them).

    Read by yaml-rs, several times faster than PyYAML to start and to read; a test checks that
    PyYAML's safe loader reads every bundled schema the same.
    """
    import yaml_rs

    return yaml_rs.loads(path.read_text(encoding="utf-8"), parse_datetime=False)


@functools.cache
def store() -> dict[str, Any]:
    """Every bundled schema's contents by its ``$id``: the one schema store, loaded once.

    :func:`registry` wraps the same objects for jsonschema; the fast path reads them through
    :class:`LazyStore`, which reads only the files it is asked for.
    """
    found = {}
    for path in _paths().values():
        contents = _read(path)
        found[contents["$id"]] = contents
    return found


class LazyStore(Mapping[str, Any]):
    """The schema store as the fast path sees it: a file is read at the first lookup of its ``$id``.

    A protocol message needs its own schema and ``common`` (and, for ``start``, the manifest and
    host config schemas), not the scenario or requirements schemas: a process that only speaks
    the protocol reads those few. Should a file's ``$id`` ever differ from its path's, every
    lookup goes to the whole :func:`store` from then on.
    """

    def __init__(self) -> None:
        self._whole: dict[str, Any] | None = None

    def __getitem__(self, uri: str) -> Any:
        if self._whole is not None:
            return self._whole[uri]
        path = _paths().get(uri)
        if path is None:  # no file by that name: only the whole store can say whether any has that $id
            return store()[uri]
        contents = _read(path)
        if isinstance(contents, dict) and contents.get("$id") == uri:
            return contents
        self._whole = store()
        return self._whole[uri]

    def __iter__(self) -> Iterator[str]:
        return iter(store())

    def __len__(self) -> int:
        return len(store())


@functools.cache
def registry() -> Any:
    """The store as a ``referencing`` registry (embedded resources crawled), for jsonschema."""
    from referencing import Registry, Resource

    return Registry().with_resources((uri, Resource.from_contents(c)) for uri, c in store().items()).crawl()


@functools.cache
def schema_id(name: str) -> str:
    """The ``$id`` of a bundled schema by short name, e.g. ``plugin-manifest``; LookupError if there is none."""
    suffix = f"/{name}.schema.json"
    for uri in _paths():
        if uri.endswith(suffix) and uri in _lazy_store():
            return uri
    for uri in store():
        if uri.endswith(suffix):
            return uri
    raise LookupError(f"no bundled schema named {name!r}")


@functools.cache
def _lazy_store() -> LazyStore:
    return LazyStore()


@functools.cache
def _fast_path() -> Any:
    from conformance.documents.fastschema import FastPath

    return FastPath(_lazy_store())


def certainly_valid(name: str, instance: Any) -> bool:
    """Whether ``instance`` is certainly valid against the bundled schema ``name`` by the fast path.

    False means "ask jsonschema". Raises LookupError for a name that is not a bundled schema.
    """
    return bool(_fast_path().certainly_valid(schema_id(name), instance))


def schema(name: str) -> dict[str, Any]:
    """The contents of a bundled schema by short name."""
    return _lazy_store()[schema_id(name)]


@functools.cache
def validator(name: str) -> Any:
    """A cached Draft 2020-12 validator (ECMA-262 patterns) for a bundled schema, with cross-references resolved."""
    from jsonschema import Draft202012Validator

    from conformance.documents.ecma import validator_class

    return validator_class()(schema(name), registry=registry(), format_checker=Draft202012Validator.FORMAT_CHECKER)


def _leaf_errors(error: Any) -> Iterator[Any]:
    """The most specific errors: follow the oneOf/anyOf branch that came closest to matching.

    A branch whose only complaint is the value's type is set aside while another branch takes that
    type: an extra field inside an object that may also be null is named, at its pointer.
    """
    if not error.context:
        yield error
        return
    branches: dict[Any, list[Any]] = {}
    for child in error.context:
        branches.setdefault(child.relative_schema_path[0], []).append(child)
    # A branch of another type entirely (null where an object was given) is no near miss: follow the others.
    here = len(error.absolute_path)
    fitting = {b: errs for b, errs in branches.items()
               if not all(e.validator == "type" and len(e.absolute_path) == here for e in errs)}
    branches = fitting or branches
    deepest = {b: max(len(e.absolute_path) for e in errs) for b, errs in branches.items()}
    best = max(deepest.values())
    candidates = [b for b, depth in deepest.items() if depth == best]
    if len(candidates) > 1:
        fewest = min(len(branches[b]) for b in candidates)
        candidates = [b for b in candidates if len(branches[b]) == fewest]
    if len(candidates) != 1:
        yield error
        return
    for child in branches[candidates[0]]:
        yield from _leaf_errors(child)


def unknown_keys(error: Any) -> list[str]:
    """The keys an ``additionalProperties`` error is about: those neither declared nor matching a pattern, sorted."""
    from conformance.documents.ecma import search

    known = error.schema.get("properties", {})
    patterns = error.schema.get("patternProperties", {})
    return sorted(k for k in error.instance if k not in known and not any(search(p, k) for p in patterns))


def _short(value: Any) -> str:
    """A value a schema error quotes (it may be a megabyte-long scalar), cut to a readable length."""
    from conformance.documents.excerpt import excerpt_repr

    return excerpt_repr(value, 80)


def _hint(error: Any) -> str:
    """What to change when only surrounding whitespace (often a YAML line break) breaks the pattern."""
    from conformance.documents.ecma import search

    text = error.instance
    if text != text.strip() and search(error.validator_value, text.strip()):
        return "; remove the surrounding whitespace or line break"
    return ""


def _pattern_message(error: Any) -> str:
    """``'Jane Doe' must be an identifier (...); try 'Jane_Doe'``: the pattern in words, and a value that fits."""
    from conformance.documents.pattern_words import describe, fitting

    words = describe(error.validator_value)
    if words is None:
        return f"{_short(error.instance)} does not match the required pattern {error.validator_value}{_hint(error)}"
    fix = _hint(error)
    if not fix and (fit := fitting(error.validator_value, error.instance)) is not None:
        fix = f"; try {fit!r}"
    return f"{_short(error.instance)} must be {words}{fix}"


def _message(error: Any) -> str:
    if error.validator == "additionalProperties":
        extra = unknown_keys(error)
        return f"unknown field(s) {', '.join(map(repr, extra))}; check the spelling or prefix extensions with 'x-'"
    if error.validator == "required":
        return error.message.replace("is a required property", "is required; add it")
    if error.validator == "enum":
        allowed = ", ".join(map(repr, error.validator_value))
        return f"{_short(error.instance)} is not allowed here; use one of {allowed}"
    if error.validator == "pattern":
        return _pattern_message(error)
    if error.validator in ("maxLength", "minLength", "type", "const", "format", "uniqueItems"):
        return error.message.replace(repr(error.instance), _short(error.instance), 1)
    if error.validator in ("oneOf", "anyOf"):
        return _alternatives_message(error)
    return error.message


def field_name(path: Any) -> str:
    """The field a schema error is about, as a reader writes it: ``plugins[2]``, ``host.strategies``."""
    name = ""
    for part in path:
        name += f"[{part}]" if isinstance(part, int) else f"{'.' if name else ''}{part}"
    return name or "the document"


def _form(branch: Any) -> str:
    if not isinstance(branch, dict):
        return "any value" if branch is True else "no value"
    if branch.get("title"):
        return str(branch["title"])
    if "$ref" in branch:
        return str(branch["$ref"]).rsplit("/", 1)[-1].removesuffix(".json").removesuffix(".schema")
    if branch.get("required"):
        return "an object with " + ", ".join(map(str, branch["required"]))
    return str(branch.get("type", "a value"))


def _alternatives_message(error: Any) -> str:
    """A oneOf/anyOf failure that names the field, the forms it may take and the closest miss."""
    from jsonschema.exceptions import best_match

    field = field_name(error.absolute_path)
    forms = " or ".join(_form(b) for b in error.validator_value)
    if error.validator == "oneOf" and not error.context:  # valid under several branches
        return f"{field} matches more than one of its allowed forms ({forms}); make it fit exactly one"
    closest = best_match(error.context)
    where = field_name(closest.absolute_path) if closest is not None else field
    hint = f"; closest: {where}: {_message(closest)}" if closest is not None else ""
    return f"{field} matches none of its allowed forms ({forms}){hint}"


def check_against(name: str, doc: YamlDocument, *, pointer_prefix: str = "", value: Any = None,
                  hint: Callable[[Any], str] | None = None) -> list[Problem]:
    """Validate ``doc`` (or ``value`` found at ``pointer_prefix`` inside it) against a schema.

    Every problem carries the JSON pointer and the file location of the offending value.
    Documents the fast path calls valid skip jsonschema (see conformance.documents.fastschema).
    ``hint`` reads each jsonschema error (its validator, path, instance and schema) and returns
    text to add to the message (``; did you mean ...``), or an empty string.
    """

    instance = doc.value if value is None else value
    if certainly_valid(name, instance):
        return []
    found: list[tuple[SourceLocation, Problem]] = []
    for top in validator(name).iter_errors(instance):
        for error in _leaf_errors(top):
            pointer = pointer_prefix + pointer_of(list(error.absolute_path))
            on_key = error.validator == "additionalProperties"
            if on_key:
                extra = unknown_keys(error)
                pointer = pointer_join(pointer, extra[0]) if extra else pointer
            source = doc.where(pointer, key=on_key)
            message = _message(error) + (hint(error) if hint is not None else "")
            found.append((source, Problem(code="schema", message=message, pointer=pointer, source=source)))
    found.sort(key=lambda item: (item[0].line or 0, item[0].column or 0, item[1].pointer))
    return [problem for _, problem in found]
