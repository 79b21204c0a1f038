"""A plugin set and its host config, as the commands that run the reference read them.

``pas simulate``, ``pas budget``, ``pas host plan`` and ``pas config explain`` take a folder (or
file) of plugin manifests and a host config. :func:`load_plugin_set` loads both through the one
loader (:mod:`conformance.documents.sets`), so their loading problems are exactly those ``pas
validate`` reports for the same paths, then builds the model values: every manifest of the set
(a module name declared twice is ``duplicate-module-name``, as in ``pas validate``) and the host
config (a manifest given as the host config is ``wrong-kind``). A set with no manifest at all is
``no-manifests``: these commands need plugins.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.documents.kinds import Kind
from conformance.documents.loader import YamlDocument
from conformance.documents.sets import DocumentSet, LoadedFile, has_error, load_set
from conformance.documents.walk import Target
from reference_impl.errors import MalformedDocument
from reference_impl.model import HostConfig, Manifest
from reference_impl.problems import Problem, Severity, SourceLocation


@dataclass(frozen=True, slots=True, kw_only=True)
class PluginSet:
    """The manifests and host config of a set, the documents they came from, and every problem.

    ``host`` is None when no host config was given or when it has errors (then a problem says so).
    """

    manifests: tuple[Manifest, ...] = ()
    manifest_docs: Mapping[str, YamlDocument] = field(default_factory=dict)
    host: HostConfig | None = None
    host_doc: YamlDocument | None = None
    problems: tuple[Problem, ...] = ()


def _build(doc: YamlDocument, build: Callable[[Any], Any]) -> tuple[Any, list[Problem]]:
    """The model value of a schema-valid document; the schema should leave nothing to reject, but never raise."""
    try:
        return build(doc.value), []
    except MalformedDocument as error:
        pointer = f"/{error.field}" if error.field else ""
        return None, [Problem(code="malformed", message=str(error), pointer=pointer, source=doc.where(pointer))]


def _manifests(documents: DocumentSet, host: Target | None) -> tuple[list[Manifest], dict[str, YamlDocument],
                                                                       list[Problem]]:
    """Every manifest of the set in path order; the second of two with one module_name is left out."""
    manifests: list[Manifest] = []
    docs: dict[str, YamlDocument] = {}
    problems: list[Problem] = []
    for file, doc in documents.of_kind(Kind.MANIFEST):
        if file.target == host:  # a manifest given as the host config: wrong-kind is already reported
            continue
        manifest, found = _build(doc, Manifest.from_json)
        problems += found
        if manifest is None:
            continue
        if manifest.module_name in docs:
            first = docs[manifest.module_name].where("/module_name")
            problems.append(Problem(code="duplicate-module-name", pointer="/module_name", source=doc.where("/module_name"),
                                    message=f"module_name '{manifest.module_name}' is also declared at {first}; "
                                            "module names must be unique"))
            continue
        manifests.append(manifest)
        docs[manifest.module_name] = doc
    return manifests, docs, problems


def _host_file(documents: DocumentSet, host: Target) -> LoadedFile | None:
    return next((file for file in documents.files if file.target == host), None)


def _host(documents: DocumentSet, host: Target) -> tuple[HostConfig | None, YamlDocument | None, list[Problem]]:
    """The host config of the set; None when its file has problems (already reported) or several documents."""
    file = _host_file(documents, host)
    if file is None or any(p.severity is Severity.ERROR for p in file.all_problems()) or not file.documents:
        return None, None, []
    if len(file.documents) > 1:
        second = file.documents[1].doc
        return None, None, [Problem(code="multiple-documents", source=SourceLocation(path=file.path, line=second.line),
                                    message=f"a host config file holds one document; found {len(file.documents)}")]
    doc = file.documents[0].doc
    config, problems = _build(doc, HostConfig.from_json)
    return config, (doc if config is not None else None), problems


def load_plugin_set(plugins: Path | str, host: Path | str | None = None) -> PluginSet:
    """Load the plugin manifests under ``plugins`` (a folder or a file) and the host config ``host``.

    Never raises for bad input: every problem is in the result, those of the one loader first.
    """
    host_target = Target(path=str(host), expect=Kind.HOST_CONFIG) if host is not None else None
    documents = load_set([plugins, *([host_target] if host_target else [])])
    manifests, docs, problems = _manifests(documents, host_target)
    config, host_doc, host_problems = _host(documents, host_target) if host_target else (None, None, [])
    problems = [*documents.problems, *problems, *host_problems]
    if not manifests and not has_error(problems):
        problems.append(Problem(code="no-manifests", source=SourceLocation(path=str(plugins)),
                                message="holds no plugin manifest (a document with module_name, or kind: "
                                        "plugin-manifest); give the folder of manifests"))
    return PluginSet(manifests=tuple(manifests), manifest_docs=docs, host=config, host_doc=host_doc,
                     problems=tuple(problems))
