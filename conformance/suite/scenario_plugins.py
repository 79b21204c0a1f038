"""A scenario's plugins: the shared fixtures, each ``plugins`` entry's manifest, and the checks on them.

An entry names a fixture of ``fixtures.yaml`` (merged with its ``with``) or is an inline manifest, and
may ask for ``copies`` of it (a large installation). :mod:`conformance.suite.scenario` checks the entries
with :func:`check_plugins` and builds them with :func:`plugin_manifests`.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from conformance.documents.loader import YamlDocument, load_mapping
from conformance.documents.schemas import check_against
from reference_impl.model import Manifest
from reference_impl.problems import Problem

FIXTURES_FILE = Path(__file__).resolve().parent / "scenarios" / "fixtures.yaml"


@functools.cache
def load_fixtures(path: Path, check_schema: bool) -> tuple[dict[str, Any], tuple[Problem, ...]]:
    """The fixtures file's manifests by name, and its problems (each manifest checked against its schema when
    ``check_schema``). Read once per process; never raises (an unreadable file is its problems)."""
    doc, problems = load_mapping(path)
    if doc is None:
        return {}, tuple(problems)
    found: list[Problem] = []
    for name, manifest in doc.value.items() if check_schema else ():
        found += check_against("plugin-manifest", doc, pointer_prefix=f"/{name}", value=manifest)
    return doc.value, tuple(found)


def _merged(entry: Mapping[str, Any], fixtures: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The manifest document of a ``plugins`` entry: its fixture merged with its ``with``, or the entry itself;
    None for an unknown fixture."""
    if "fixture" not in entry:
        return entry
    fixture = fixtures.get(entry["fixture"])
    return None if fixture is None else {**fixture, **entry.get("with", {})}


def _plugin_entries(doc: YamlDocument, fixtures: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any], Any]]:
    """Each installed plugin as (pointer, entry as written, manifest document).

    The manifest is a fixture merged with the entry's ``with``, or the entry itself; None for
    an unknown fixture.
    """
    entries: list[tuple[str, Mapping[str, Any], Any]] = []
    for index, entry in enumerate(doc.value.get("plugins", [])):
        manifest = _merged(entry, fixtures)
        if manifest is not None and "copies" in entry:
            entries += [(f"/plugins/{index}", entry, copy) for copy in copies_of(manifest, entry["copies"])]
        else:
            entries.append((f"/plugins/{index}", entry, manifest))
    return entries


# Each fixture's Manifest merged with a ``with``, built once per process (like the fixtures themselves, read
# once by load_fixtures): most scenarios install the same few fixtures. Keyed by the ``with`` as written (repr
# keeps its order and its types); a Manifest is a frozen value, so scenarios may share one.
_FIXTURE_MANIFESTS: dict[tuple[Path, str, str], Manifest] = {}


def plugin_manifests(doc: YamlDocument, fixtures_path: Path) -> list[Manifest]:
    """The Manifest of each installed plugin: each of :func:`plugin_documents` built by ``Manifest.from_json``.

    A fixture with the same ``with`` is built once; copies are built from their first, differing from it only
    in name and module name. Raises MalformedDocument as ``from_json`` does on a wrong shape.
    """
    fixtures, _ = load_fixtures(fixtures_path, False)
    manifests: list[Manifest] = []
    for entry in doc.value.get("plugins", []):
        manifest = _merged(entry, fixtures)
        if manifest is None:
            continue  # an unknown fixture (check_scenario reports it)
        if "copies" in entry:
            manifests += _copies(copies_of(manifest, entry["copies"]))
        elif "fixture" in entry:
            key = (fixtures_path, entry["fixture"], repr(entry.get("with", {})))
            if key not in _FIXTURE_MANIFESTS:
                _FIXTURE_MANIFESTS[key] = Manifest.from_json(manifest)
            manifests.append(_FIXTURE_MANIFESTS[key])
        else:
            manifests.append(Manifest.from_json(manifest))
    return manifests


def _copies(documents: list[dict[str, Any]]) -> list[Manifest]:
    """The Manifests of :func:`copies_of`'s documents: the first built, the others the same with their names."""
    if not documents:
        return []
    first = Manifest.from_json(documents[0])
    return [first] + [dataclasses.replace(first, name=copy["name"], module_name=copy["module_name"])
                      for copy in documents[1:]]


def plugin_documents(doc: YamlDocument, fixtures_path: Path = FIXTURES_FILE) -> list[Mapping[str, Any]]:
    """The manifest document of each installed plugin, fixtures merged and copies made (unknown fixtures left out)."""
    fixtures, _ = load_fixtures(fixtures_path, False)
    return [manifest for _, _, manifest in _plugin_entries(doc, fixtures) if manifest is not None]


def copies_of(manifest: Mapping[str, Any], count: int) -> list[dict[str, Any]]:
    """``count`` copies of a manifest document: module_name ``<m>_<i>``, name ``<name> <i>`` (i from 1, zero-padded)."""
    width = len(str(count))
    return [{**manifest, "module_name": f"{manifest.get('module_name')}_{i:0{width}d}", "name": f"{manifest.get('name')} {i}"}
            for i in range(1, count + 1)]


def check_plugins(doc: YamlDocument, fixtures: Mapping[str, Any], check_schema: bool) -> list[Problem]:
    """Unknown fixtures, fixtures made invalid by their ``with``, and module names used twice."""
    problems: list[Problem] = []
    names: list[str] = []
    for pointer, entry, manifest in _plugin_entries(doc, fixtures):
        if manifest is None:
            problems.append(Problem(code="unknown-fixture", pointer=f"{pointer}/fixture", source=doc.where(pointer),
                                    message=f"no fixture named {entry['fixture']!r}; see {FIXTURES_FILE.name}"))
            continue
        if check_schema and "fixture" in entry:
            problems += check_against("plugin-manifest", doc, pointer_prefix=f"{pointer}/with", value=manifest)
        names.append(manifest.get("module_name"))
    for name in sorted({n for n in names if isinstance(n, str) and names.count(n) > 1}):
        problems.append(Problem(code="duplicate-module-name", pointer="/plugins", source=doc.where("/plugins"),
                                message=f"two plugins have module_name {name!r}; rename one"))
    return problems
