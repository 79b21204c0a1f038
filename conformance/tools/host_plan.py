"""Host inputs from files (a host config and a plugin folder), and host problems located in them.

Used by ``pas host plan`` and ``pas config explain``. The reference host core is pure and
knows no files: its problems carry an :class:`~reference_impl.host_config.Origin` (manifest
of a plugin, host config, environment variable, command-line argument, plus a JSON pointer),
which :func:`locate` turns into a file, line and column.

The plugin folder is searched recursively for ``*.yaml``, ``*.yml`` and ``*.json`` files, in
order of their relative paths (that is the installation order, which orders built-ins);
each holds one plugin manifest. Host configs found there (``kind: host-config``) are skipped.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from conformance.documents.exit_codes import ExitCode
from conformance.documents.loader import YamlDocument, load_mapping
from conformance.documents.suggest import check_with_hints
from conformance.documents.walk import walk_folder
from reference_impl.errors import MalformedDocument
from reference_impl.host_config import ENV_PREFIX, Provenance
from reference_impl.lifecycle import HostPlan, plan
from reference_impl.model import HostConfig, Manifest
from reference_impl.problems import Origin, Problem, Severity, SourceKind, SourceLocation

IO_CODES = frozenset({"unreadable", "not-a-directory", "path-not-found", "special-file", "file-too-large",
                      "invalid-utf8", "not-text"})
# Host problems that come from a malformed command line, not from the inputs (exit 2).
USAGE_CODES = frozenset({"override-syntax", "override-unknown-plugin"})


@dataclass(frozen=True, slots=True, kw_only=True)
class HostInputs:
    """A loaded host config and plugin folder, with the documents to locate problems in."""

    host: HostConfig
    host_doc: YamlDocument
    manifests: tuple[Manifest, ...] = ()
    manifest_docs: Mapping[str, YamlDocument] = field(default_factory=dict)


def pas_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """Only the ``PAS__`` variables of ``environ`` (the only ones a host reads)."""
    return {name: value for name, value in environ.items() if name.startswith(ENV_PREFIX)}


_HOST_CONFIG_KEYS = frozenset({"enabled", "disabled", "strategies", "scheduler_enabled"})


def _is_host_config(value: Mapping) -> bool:
    """A host config says so (``kind``, ``$schema``) or has its shape (no module_name, host-config keys)."""
    reference = value.get("$schema")
    if value.get("kind") == "host-config" or (isinstance(reference, str) and "host-config" in reference):
        return True
    return value.get("kind") is None and "module_name" not in value and bool(_HOST_CONFIG_KEYS & set(value))


def _load_manifest(path: Path) -> tuple[Manifest | None, YamlDocument | None, list[Problem]]:
    doc, problems = load_mapping(path)
    if doc is None or _is_host_config(doc.value):
        return None, None, problems
    problems = check_with_hints("plugin-manifest", doc)
    if problems:
        return None, None, problems
    try:
        return Manifest.from_json(doc.value), doc, []
    except MalformedDocument as error:  # the schema should have caught it; report, never crash
        return None, None, [Problem(code="schema", message=str(error), source=doc.where(""))]


def load_plugin_dir(folder: Path | str,
                    skip: Path | str | None = None) -> tuple[list[Manifest], dict[str, YamlDocument], list[Problem]]:
    """Every valid manifest under ``folder`` in path order, their documents, and the problems.

    The folder is walked by :func:`conformance.documents.walk.walk_folder`, as by ``pas
    simulate`` and ``pas validate``: recursive, each real file once, special files refused.

    ``skip`` (the host config, when it lives in the same folder) is not read.
    """
    if not Path(folder).is_dir():
        return [], {}, [Problem(code="not-a-directory", source=SourceLocation(path=str(folder)),
                                message="the plugin folder does not exist or is not a directory")]
    walk = walk_folder(folder)
    manifests: list[Manifest] = []
    docs: dict[str, YamlDocument] = {}
    problems: list[Problem] = list(walk.problems)
    skipped = os.path.realpath(skip) if skip is not None else None
    files = [p for p in walk.files if os.path.realpath(p) != skipped]
    for path in files:
        manifest, doc, found = _load_manifest(path)
        problems += found
        if manifest is None or doc is None:
            continue
        if manifest.module_name in docs:
            problems.append(Problem(code="duplicate-module-name", pointer="/module_name", source=doc.where("/module_name"),
                                    message=f"module_name '{manifest.module_name}' is also declared by "
                                            f"{docs[manifest.module_name].path}; this file is ignored"))
            continue
        manifests.append(manifest)
        docs[manifest.module_name] = doc
    return manifests, docs, problems


def load_host_inputs(host_path: Path | str, plugins: Path | str) -> tuple[HostInputs | None, list[Problem]]:
    """Load a host config and a plugin folder; None when the host config cannot be used."""
    doc, problems = load_mapping(host_path)
    if doc is not None:
        problems = check_with_hints("host-config", doc)
    manifests, docs, plugin_problems = load_plugin_dir(plugins, skip=host_path)
    if doc is None or problems:
        return None, problems + plugin_problems
    inputs = HostInputs(host=HostConfig.from_json(doc.value), host_doc=doc, manifests=tuple(manifests),
                        manifest_docs=docs)
    return inputs, plugin_problems


def plan_of(inputs: HostInputs, environment: Mapping[str, str], overrides: Sequence[str]) -> HostPlan:
    """The reference host's plan (register + validate) for loaded inputs."""
    return plan(inputs.manifests, inputs.host, pas_environment(environment), overrides)


def source_of(origin: Origin, inputs: HostInputs) -> SourceLocation:
    """Where ``origin`` is: a file, line and column, or the variable / argument that set it."""
    if origin.kind is SourceKind.MANIFEST and origin.name in inputs.manifest_docs:
        return inputs.manifest_docs[origin.name].where(origin.pointer)
    if origin.kind is SourceKind.HOST_CONFIG:
        return inputs.host_doc.where(origin.pointer)
    if origin.kind is SourceKind.ENVIRONMENT:
        return SourceLocation(path=f"${origin.name}")
    return SourceLocation(path=f"--set {origin.name}" if origin.kind is SourceKind.COMMAND_LINE else origin.name)


def locate(problem: Problem, inputs: HostInputs) -> Problem:
    """The host problem located in the inputs: its origin becomes a source and a pointer."""
    origin = problem.origin
    if origin is None:
        return problem
    return replace(problem, pointer=origin.pointer, source=source_of(origin, inputs))


def provenance_source(provenance: Provenance, inputs: HostInputs) -> str:
    """Where a configuration value was written, for a human: ``file:line:col``, ``$VAR`` or ``--set ...``."""
    return str(source_of(provenance.origin, inputs))


def format_problem(problem: Problem) -> str:
    """``path:line:col: severity code message [pointer]``; no pointer for a variable or an argument."""
    where = f"{problem.source}: " if problem.source else ""
    pointer = f" [{problem.pointer or '/'}]" if problem.source and problem.source.line is not None else ""
    if problem.pointer and not pointer:
        pointer = f" [{problem.pointer}]"
    return f"{where}{problem.severity.value} {problem.code} {problem.message}{pointer}"


def exit_code(problems: Sequence[Problem]) -> ExitCode:
    """USAGE when a file could not be read, FAILED when any problem is an error, else OK."""
    if any(p.code in IO_CODES for p in problems):
        return ExitCode.USAGE
    return ExitCode.FAILED if any(p.severity is Severity.ERROR for p in problems) else ExitCode.OK
