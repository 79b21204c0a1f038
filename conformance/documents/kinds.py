"""The one document-kind detector: is this mapping a plugin manifest, a host config, a scenario, or none?

Every command that reads PAS documents asks :func:`detect_kind` (through
:mod:`conformance.documents.sets`), so a file is the same kind everywhere. In order:

1. ``kind:`` when it names a kind that has one (``plugin-manifest``, ``host-config``);
2. ``$schema`` when it names a bundled schema (``.../plugin-manifest.schema.json``, ...);
3. the editor modeline ``# yaml-language-server: $schema=...`` of the file, the same way;
4. the file name, by the naming convention schema catalogs match (:func:`filename_kind`):
   ``pas-plugin.yaml`` or ``NAME.pas-plugin.yaml`` is a manifest, ``pas-host.yaml`` or
   ``NAME.pas-host.yaml`` a host config (``.yml`` and ``.json`` too);
5. the shape: ``module_name`` is a manifest (the manifest schema requires it, no other kind has
   it); a key that only the host-config schema declares (read from the schemas:
   ``enabled``, ``disabled``, ``strategies``, ``scheduler_enabled``) is a host config; ``covers``
   or ``steps`` (required by the scenario schema, declared by no other) is a scenario.

Anything else is not a PAS document (None): callers skip it, or report it when the user named
the file.
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Mapping
from pathlib import PurePath
from typing import Any


class Kind(enum.StrEnum):
    """The kinds of PAS document, named like their bundled schemas."""

    MANIFEST = "plugin-manifest"
    HOST_CONFIG = "host-config"
    SCENARIO = "scenario"


#: Each kind by its name; a lookup here costs a tenth of calling ``Kind(name)`` (once or twice per document).
_BY_NAME = {kind.value: kind for kind in Kind}
#: The kinds whose documents are schema-checked when a set is loaded (scenarios have their own loader).
CHECKED_KINDS = (Kind.MANIFEST, Kind.HOST_CONFIG)
#: Keys every kind may have, which therefore say nothing about the kind.
_COMMON_KEYS = frozenset({"$schema", "kind"})
#: Keys that mark a manifest or a scenario by shape; tests check that each kind's schema requires
#: them and no other kind's schema declares them. (A manifest's ``name`` and ``version`` are not
#: markers: other YAML files, compose files and workflows among them, have those keys too.)
_MARKERS = {Kind.MANIFEST: frozenset({"module_name"}), Kind.SCENARIO: frozenset({"covers", "steps"})}
_SCHEMA_REF = re.compile(r"(plugin-manifest|host-config|scenario)\.schema\.(?:json|ya?ml)(?:#.*)?$")
_MODELINE = re.compile(r"#[ \t]*yaml-language-server:[ \t]*\$schema=(\S+)")
#: The file-name convention (docs/guides/manifest.md#file-names): the name, or the ending after a dot, per kind.
#: Not ``*.pas.yaml``: ``.pas.yaml`` is pas validate's config file.
FILE_NAMES = {Kind.MANIFEST: "pas-plugin", Kind.HOST_CONFIG: "pas-host"}
FILE_SUFFIXES = (".yaml", ".yml", ".json")


def _properties(name: str) -> frozenset[str]:
    from conformance.documents.schemas import schema

    return frozenset(schema(name).get("properties", {}))


@functools.cache
def host_config_keys() -> frozenset[str]:
    """The keys only a host config has: the host-config schema's properties that the manifest's lacks."""
    return _properties(Kind.HOST_CONFIG) - _properties(Kind.MANIFEST) - _COMMON_KEYS


def shape_keys(kind: Kind) -> frozenset[str]:
    """The keys that make a mapping ``kind`` by its shape (see the module docstring)."""
    return host_config_keys() if kind is Kind.HOST_CONFIG else _MARKERS[kind]


def kind_of_reference(reference: object) -> Kind | None:
    """The kind a ``$schema`` value or modeline names (a bundled schema's file name), or None."""
    match = _SCHEMA_REF.search(reference) if isinstance(reference, str) else None
    return _BY_NAME[match.group(1)] if match else None


def modeline_kind(text: str) -> Kind | None:
    """The kind named by a file's ``# yaml-language-server: $schema=`` modeline, or None."""
    if "yaml-language-server" not in text:  # the regex costs more than this test on most files
        return None
    match = _MODELINE.search(text)
    return kind_of_reference(match.group(1)) if match else None


def filename_kind(path: str | PurePath) -> Kind | None:
    """The kind a file's name gives by the convention (``pas-plugin.yaml``, ``weather.pas-plugin.yaml``,
    ``pas-host.yml`` ...), or None; case-insensitive."""
    name = PurePath(path).name.lower()
    for kind, stem in FILE_NAMES.items():
        if any(name == stem + suffix or name.endswith(f".{stem}{suffix}") for suffix in FILE_SUFFIXES):
            return kind
    return None


def catalog_patterns(kind: Kind) -> list[str]:
    """The ``fileMatch`` globs of ``kind``'s schema catalog entry: what :func:`filename_kind` recognises."""
    stem = FILE_NAMES[kind]
    return [*(stem + suffix for suffix in FILE_SUFFIXES), *(f"*.{stem}{suffix}" for suffix in FILE_SUFFIXES)]


def detect_kind(value: Mapping[str, Any], modeline: Kind | None = None) -> Kind | None:
    """The kind of a mapping: declared ``kind``, then ``$schema``, then ``modeline`` (the kind the file's
    modeline or, failing that, its name gives), then its shape."""
    declared = value.get("kind")
    if declared in (Kind.MANIFEST, Kind.HOST_CONFIG):
        return _BY_NAME[declared]
    kind = kind_of_reference(value.get("$schema")) or modeline
    if kind is not None:
        return kind
    for candidate in (Kind.MANIFEST, Kind.HOST_CONFIG, Kind.SCENARIO):  # a manifest's marker needs no schema read
        if not shape_keys(candidate).isdisjoint(value):
            return candidate
    return None
