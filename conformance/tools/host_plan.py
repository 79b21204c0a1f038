"""Host problems located in the files they came from, for ``pas host plan`` and ``pas config explain``.

Both commands load their host config and plugin folder with
:func:`conformance.documents.plugin_set.load_plugin_set`, the loading ``pas validate`` and ``pas
simulate`` do (the folder walked recursively in path order, which is the installation order and
orders built-ins; host configs and other documents found there are checked, not used as plugins).
The reference host core is pure and knows no files: its problems carry an
:class:`~reference_impl.host_config.Origin` (manifest of a plugin, host config, environment
variable, command-line argument, plus a JSON pointer), which :func:`locate` turns into a file,
line and column.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from conformance.documents.plugin_set import PluginSet
from reference_impl.host_config import ENV_PREFIX
from reference_impl.host_observations import Provenance
from reference_impl.lifecycle import HostPlan, plan
from reference_impl.problems import Origin, Problem, SourceKind, SourceLocation

# Host problems that come from a malformed command line, not from the inputs (exit 2).
USAGE_CODES = frozenset({"override-syntax", "override-unknown-plugin"})


def pas_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """Only the ``PAS__`` variables of ``environ`` (the only ones a host reads)."""
    return {name: value for name, value in environ.items() if name.startswith(ENV_PREFIX)}


def plan_of(inputs: PluginSet, environment: Mapping[str, str], overrides: Sequence[str]) -> HostPlan:
    """The reference host's plan (register + validate) for loaded inputs; ValueError without a host config."""
    if inputs.host is None:
        raise ValueError("the plugin set was loaded without a usable host config")
    return plan(inputs.manifests, inputs.host, pas_environment(environment), overrides)


def source_of(origin: Origin, inputs: PluginSet) -> SourceLocation:
    """Where ``origin`` is: a file, line and column, or the variable / argument that set it."""
    if origin.kind is SourceKind.MANIFEST and origin.name in inputs.manifest_docs:
        return inputs.manifest_docs[origin.name].where(origin.pointer)
    if origin.kind is SourceKind.HOST_CONFIG and inputs.host_doc is not None:
        return inputs.host_doc.where(origin.pointer)
    if origin.kind is SourceKind.ENVIRONMENT:
        return SourceLocation(path=f"${origin.name}")
    return SourceLocation(path=f"--set {origin.name}" if origin.kind is SourceKind.COMMAND_LINE else origin.name)


def locate(problem: Problem, inputs: PluginSet) -> Problem:
    """The host problem located in the inputs: its origin becomes a source and a pointer."""
    origin = problem.origin
    if origin is None:
        return problem
    return replace(problem, pointer=origin.pointer, source=source_of(origin, inputs))


def provenance_source(provenance: Provenance, inputs: PluginSet) -> str:
    """Where a configuration value was written, for a human: ``file:line:col``, ``$VAR`` or ``--set ...``."""
    return str(source_of(provenance.origin, inputs))


def format_problem(problem: Problem) -> str:
    """``path:line:col: severity code message [pointer]``; no pointer for a variable or an argument."""
    where = f"{problem.source}: " if problem.source else ""
    pointer = f" [{problem.pointer or '/'}]" if problem.source and problem.source.line is not None else ""
    if problem.pointer and not pointer:
        pointer = f" [{problem.pointer}]"
    return f"{where}{problem.severity.value} {problem.code} {problem.message}{pointer}"
