"""Layered plugin configuration with provenance (HOST-CFG-1..7), as pure functions.

Four layers in increasing precedence: the manifest's ``config.defaults``, the host config
file's ``config`` entry, the environment, the command line. Each layer is a sequence of
:class:`Assignment` (a value written at a path of one plugin's namespace, and where it was
written); the layers are merged in order, mappings key by key and recursively, anything else
replacing what was below. Every leaf of the result (a scalar, a list or an empty mapping)
keeps its :class:`Provenance`: the last assignment that wrote a leaf at exactly that path.

Environment variables (HOST-CFG-5): ``PAS__<MODULE>__<KEY>[__<SUBKEY>...]``. MODULE is
matched without regard to case against the installed module names: the variable belongs to
the one installed module whose upper-cased name, followed by ``__``, starts what follows
``PAS__``; no match is a warning (the variable is ignored), more than one is an error naming
them. The remaining ``__``-separated segments name keys, again without regard to case: a
segment equal to a key already present at that level of the lower layers names that key
(an exact match first, else the one key equal ignoring case; two such keys are an error);
otherwise it names the segment lower-cased. Values are parsed as JSON when they parse
(``NaN`` and ``Infinity`` do not count; nothing is trimmed) and kept as strings otherwise.
Only names starting with ``PAS__`` exactly are read; they are applied in code-point order of
their names. :class:`Reading` holds these choices as replaceable functions.

Command-line overrides (HOST-CFG-7): ``module.key.sub=value``, split at the first ``=``; the
module and the keys are taken exactly as written (so a key containing ``.`` cannot be set this
way); the value is parsed like an environment value; later overrides win over earlier ones.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reference_impl.frozen import freeze, thaw
from reference_impl.host_observations import Layer, MergedConfig, Provenance
from reference_impl.model import HostConfig, Manifest
from reference_impl.problems import Origin, Problem, Severity, SourceKind, pointer_of

JSON = Any
Path = tuple[str, ...]
Merge = Callable[[JSON, JSON], JSON]
ENV_PREFIX = "PAS__"


@dataclass(frozen=True, slots=True, kw_only=True)
class Assignment:
    """One layer writing ``value`` at ``path`` inside the namespace of ``module_name``."""

    module_name: str
    path: Path
    value: JSON
    origin: Origin


def deep_merge(base: JSON, overlay: JSON) -> JSON:
    """Merge ``overlay`` over ``base``: mappings key by key, recursively; otherwise overlay wins (HOST-CFG-2)."""
    if isinstance(base, Mapping) and isinstance(overlay, Mapping):
        merged = thaw(base)
        for key, value in overlay.items():
            merged[key] = deep_merge(base[key], value) if key in base else thaw(value)
        return merged
    return thaw(overlay)


def leaves(value: JSON, path: Path = ()) -> Iterator[tuple[Path, JSON]]:
    """Every leaf under ``value`` with its path: scalars, lists, and empty mappings below the root."""
    if isinstance(value, Mapping) and value:
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif path:
        yield path, value


def nest(path: Path, value: JSON) -> JSON:
    """``value`` wrapped in one mapping per key of ``path`` (``nest(("a", "b"), 1) == {"a": {"b": 1}}``)."""
    for key in reversed(path):
        value = {key: value}
    return value


def parse_value(text: str) -> JSON:
    """Parse an environment or command-line value as JSON when it parses, else keep the string."""
    def _reject(constant: str) -> None:
        raise ValueError(constant)

    try:
        return json.loads(text, parse_constant=_reject)
    except (ValueError, RecursionError):
        return text


def pas_variables(environment: Mapping[str, str]) -> list[str]:
    """The names of the variables a host reads: those starting with ``PAS__`` exactly, in code-point order (HOST-CFG-5)."""
    return sorted(name for name in environment if name.startswith(ENV_PREFIX))


def split_override(text: str) -> tuple[str, str, str]:
    """``module.key=value`` split at the first ``=``: (target, ``=`` or ``""``, value) (HOST-CFG-7)."""
    return text.partition("=")


@dataclass(frozen=True, slots=True, kw_only=True)
class Reading:
    """How a host reads the environment and command-line layers, as replaceable functions.

    ``variables``: which environment variables are read, in the order they are applied;
    ``parse``: a variable's or override's value; ``split``: an override into target and value.
    The reference uses :data:`READING`; deliberately broken hosts (tests/fakes) replace one.
    """

    variables: Callable[[Mapping[str, str]], Sequence[str]] = pas_variables
    parse: Callable[[str], JSON] = parse_value
    split: Callable[[str], tuple[str, str, str]] = split_override


READING = Reading()


def merged_value(module_name: str, layers: Sequence[tuple[Layer, Sequence[Assignment]]],
                 merge: Merge = deep_merge) -> JSON:
    """One plugin's assignments merged layer by layer: the value alone, as plain JSON (no provenance)."""
    value: JSON = {}
    for _, assignments in layers:
        for assignment in assignments:
            if assignment.module_name == module_name:
                value = merge(value, nest(assignment.path, assignment.value))
    return value


def merge_layers(module_name: str, layers: Sequence[tuple[Layer, Sequence[Assignment]]],
                 merge: Merge = deep_merge) -> MergedConfig:
    """Merge one plugin's assignments, layer by layer, and keep the provenance of every leaf."""
    value = merged_value(module_name, layers, merge)
    written: dict[Path, Provenance] = {}
    for layer, assignments in layers:
        for assignment in assignments:
            if assignment.module_name != module_name:
                continue
            for relative in _written_leaves(assignment):
                origin = Origin(kind=assignment.origin.kind, name=assignment.origin.name,
                                pointer=assignment.origin.pointer + pointer_of(relative))
                written[(*assignment.path, *relative)] = Provenance(layer=layer, origin=origin)
    provenance = {pointer_of(path): written[path] for path, _ in leaves(value) if path in written}
    return MergedConfig(value=freeze(value), provenance=provenance)


def _written_leaves(assignment: Assignment) -> Iterator[Path]:
    """Paths, relative to the assignment's path, of the leaves it writes."""
    if isinstance(assignment.value, Mapping) and assignment.value:
        yield from (relative for relative, _ in leaves(assignment.value))
    elif assignment.path:
        yield ()


def defaults_layer(manifests: Sequence[Manifest]) -> tuple[Assignment, ...]:
    """The manifests' ``config.defaults``, one assignment per plugin."""
    return tuple(Assignment(module_name=m.module_name, path=(), value=thaw(m.config_defaults),
                            origin=Origin(kind=SourceKind.MANIFEST, name=m.module_name, pointer="/config/defaults"))
                 for m in manifests)


def file_layer(host: HostConfig, installed: Sequence[str]) -> tuple[tuple[Assignment, ...], tuple[Problem, ...]]:
    """The host config file's ``config`` entries; an entry naming no installed plugin is a warning."""
    assignments, problems = [], []
    for module_name, values in host.config.items():
        origin = Origin(kind=SourceKind.HOST_CONFIG, pointer=pointer_of(("config", module_name)))
        if module_name not in installed:
            problems.append(Problem(code="config-unknown-plugin", severity=Severity.WARNING, origin=origin,
                                        message=f"the config entry '{module_name}' names no installed plugin; "
                                                "fix the name or remove the entry"))
            continue
        assignments.append(Assignment(module_name=module_name, path=(), value=thaw(values), origin=origin))
    return tuple(assignments), tuple(problems)


def environment_layer(environment: Mapping[str, str], installed: Sequence[str], lower: Mapping[str, JSON],
                      reading: Reading = READING) -> tuple[tuple[Assignment, ...], tuple[Problem, ...]]:
    """The ``PAS__`` variables of ``environment`` as assignments (see the module docstring).

    ``lower`` is each plugin's configuration merged from the layers below (for key case).
    """
    assignments: list[Assignment] = []
    problems: list[Problem] = []
    for name in reading.variables(environment):
        module_name, segments, problem = _env_target(name, installed)
        path, key_problem = _resolve_keys(name, module_name, segments, lower.get(module_name, {}))
        problems += [p for p in (problem, key_problem) if p is not None]
        if module_name and path:
            assignments.append(Assignment(module_name=module_name, path=path, value=reading.parse(environment[name]),
                                          origin=Origin(kind=SourceKind.ENVIRONMENT, name=name)))
    return tuple(assignments), tuple(problems)


def _env_target(name: str, installed: Sequence[str]) -> tuple[str, tuple[str, ...], Problem | None]:
    """The module a variable belongs to and its key segments, or a problem."""
    rest = name[len(ENV_PREFIX):].upper()
    origin = Origin(kind=SourceKind.ENVIRONMENT, name=name)
    candidates = [m for m in installed if rest.startswith(m.upper() + "__")]
    if len(candidates) > 1:
        listed = " and ".join(f"'{m}'" for m in candidates)
        return "", (), Problem(code="env-ambiguous-plugin", plugins=tuple(candidates), origin=origin,
                                   message=f"the variable {name} could belong to plugins {listed}; "
                                           "remove the variable or rename one of the plugins")
    if not candidates:
        bare = [m for m in installed if rest == m.upper()]
        message = (f"the variable {name} names plugin '{bare[0]}' but no key; use {name}__<KEY>" if bare else
                   f"the variable {name} names no installed plugin; it is ignored")
        return "", (), Problem(code="env-no-key" if bare else "env-unknown-plugin", origin=origin,
                                   severity=Severity.WARNING, plugins=tuple(bare), message=message)
    module_name = candidates[0]
    segments = tuple(name[len(ENV_PREFIX) + len(module_name) + 2:].split("__"))
    if "" in segments:
        return "", (), Problem(code="env-empty-key", severity=Severity.WARNING, origin=origin,
                                   plugins=(module_name,),
                                   message=f"the variable {name} has an empty key between '__' separators; "
                                           "it is ignored")
    return module_name, segments, None


def _resolve_keys(name: str, module_name: str, segments: Sequence[str],
                  lower: JSON) -> tuple[Path, Problem | None]:
    """Map variable segments to config keys, matching existing keys without regard to case."""
    path: list[str] = []
    node = lower
    for segment in segments:
        keys = list(node) if isinstance(node, Mapping) else []
        matches = [segment] if segment in keys else [k for k in keys if k.upper() == segment.upper()]
        if len(matches) > 1:
            at = pointer_of(path) or "the top level"
            listed = " and ".join(f"'{k}'" for k in matches)
            return (), Problem(code="env-ambiguous-key", plugins=(module_name,),
                                   origin=Origin(kind=SourceKind.ENVIRONMENT, name=name),
                                   message=f"the variable {name} could name keys {listed} at {at} of plugin "
                                           f"'{module_name}'; rename one of the keys or use --set")
        key = matches[0] if matches else segment.lower()
        path.append(key)
        node = node[key] if matches else None
    return tuple(path), None


def override_layer(overrides: Sequence[str], installed: Sequence[str], loaded: Sequence[str],
                   reading: Reading = READING) -> tuple[tuple[Assignment, ...], tuple[Problem, ...]]:
    """Command-line ``module.key.sub=value`` overrides as assignments, in the order given."""
    assignments: list[Assignment] = []
    problems: list[Problem] = []
    for text in overrides:
        origin = Origin(kind=SourceKind.COMMAND_LINE, name=text)
        target, equals, raw = reading.split(text)
        keys = target.split(".")
        if not equals or len(keys) < 2 or "" in keys:
            problems.append(Problem(code="override-syntax", origin=origin,
                                        message=f"the override '{text}' is not of the form module.key=value"))
        elif keys[0] not in installed:
            problems.append(Problem(code="override-unknown-plugin", origin=origin,
                                        message=f"the override '{text}' names no installed plugin '{keys[0]}'"))
        elif keys[0] not in loaded:
            problems.append(Problem(code="override-plugin-not-loaded", severity=Severity.WARNING,
                                        origin=origin, plugins=(keys[0],),
                                        message=f"the override '{text}' has no effect: plugin '{keys[0]}' "
                                                "is not loaded"))
        else:
            assignments.append(Assignment(module_name=keys[0], path=tuple(keys[1:]), value=reading.parse(raw),
                                          origin=origin))
    return tuple(assignments), tuple(problems)


def build_configs(manifests: Sequence[Manifest], loaded: Sequence[str], host: HostConfig,
                  environment: Mapping[str, str], overrides: Sequence[str], merge: Merge = deep_merge,
                  reading: Reading = READING) -> tuple[Mapping[str, MergedConfig], tuple[Problem, ...]]:
    """Every loaded plugin's merged configuration, and the problems found in the layers.

    ``manifests`` are the installed plugins; ``loaded`` the module names in load order.
    """
    installed = [m.module_name for m in manifests]
    defaults = defaults_layer([m for m in manifests if m.module_name in loaded])
    file, file_problems = file_layer(host, installed)
    below = [(Layer.DEFAULTS, defaults), (Layer.FILE, file)]
    lower = {m: merged_value(m, below, merge) for m in loaded}
    env, env_problems = environment_layer(environment, installed, lower, reading)
    cli, cli_problems = override_layer(overrides, installed, loaded, reading)
    layers = [*below, (Layer.ENVIRONMENT, env), (Layer.COMMAND_LINE, cli)]
    configs = {m: merge_layers(m, layers, merge) for m in loaded}
    return configs, (*file_problems, *env_problems, *cli_problems)


@functools.lru_cache(maxsize=256)
def _config_validator(schema_json: str) -> Any:
    """A checked validator for one config schema (by its canonical JSON), or the error that makes it unusable.

    Cached, the error too: checking a schema against the metaschema costs far more than
    validating a config, and a fuzzed host loads the same broken schema again and again.
    """
    from jsonschema import Draft202012Validator
    from referencing import Registry

    schema = json.loads(schema_json)
    try:
        Draft202012Validator.check_schema(schema)
    except Exception as error:  # noqa: BLE001 - returned to the caller, which reports it as the schema's defect
        return error
    return Draft202012Validator(schema, registry=Registry())


def check_config(manifest: Manifest, config: MergedConfig) -> tuple[Problem, ...]:
    """Validate a merged configuration against the plugin's ``config.schema`` (HOST-VAL-3).

    Nothing is fetched: a ``$ref`` to anything outside the schema is reported as a problem.
    """
    if manifest.config_schema is None:
        return ()
    name = manifest.module_name
    schema_origin = Origin(kind=SourceKind.MANIFEST, name=name, pointer="/config/schema")
    try:
        validator = _config_validator(json.dumps(thaw(manifest.config_schema), sort_keys=True))
        if isinstance(validator, Exception):
            return (_unusable_schema(name, schema_origin, validator),)
        errors = sorted(validator.iter_errors(thaw(config.value)), key=lambda e: (list(e.absolute_path), e.message))
    except Exception as error:  # noqa: BLE001 - a third-party schema's defect is a finding, never a crash
        return (_unusable_schema(name, schema_origin, error),)
    return tuple(_config_problem(name, config, error, schema_origin) for error in errors)


def _unusable_schema(name: str, schema_origin: Origin, error: Exception) -> Problem:
    """The ``invalid-config-schema`` problem of a schema that cannot be used, at the part of it at fault."""
    reason = getattr(error, "message", None) or str(error) or type(error).__name__
    inside = pointer_of([str(k) for k in getattr(error, "path", ())])
    origin = Origin(kind=SourceKind.MANIFEST, name=name, pointer=schema_origin.pointer + inside)
    return Problem(code="invalid-config-schema", plugins=(name,), origin=origin,
                   message=f"plugin '{name}' has a config schema that cannot be used: {reason}")


def _config_problem(name: str, config: MergedConfig, error: Any, schema_origin: Origin) -> Problem:
    """The problem for one schema error: located where the offending value was written, when known."""
    path = [str(k) for k in error.absolute_path]
    written = (config.provenance.get(pointer_of(path[:n])) for n in range(len(path), 0, -1))
    provenance = next((p for p in written if p is not None), None)
    origin = provenance.origin if provenance else Origin(
        kind=SourceKind.MANIFEST, name=name,
        pointer=schema_origin.pointer + pointer_of([str(k) for k in error.absolute_schema_path]))
    return Problem(code="invalid-config", plugins=(name,), origin=origin,
                       message=f"plugin '{name}' config at {pointer_of(path) or '/'}: {error.message}")
