"""``pas simulate``: drive the reference scheduler with a tiny script and record what it shows.

The script language is :mod:`conformance.tools.simulate.script`; this module reads the script
file, loads the plugin and host files, and runs the commands on the reference engine.
Nothing here prints: :func:`simulate` returns a frozen :class:`Simulation` and
``conformance.tools.simulate.report`` renders it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from conformance.documents.loader import DOCUMENT_SUFFIXES, YamlDocument, load_mapping
from conformance.documents.suggest import check_with_hints
from conformance.documents.walk import walk_folder
from conformance.tools.simulate.script import ScriptCommand, parse_script
from reference_impl.errors import MalformedDocument
from reference_impl.events import Observation
from reference_impl.model import HostConfig, Manifest
from reference_impl.problems import Problem, Severity, SourceLocation, pointer_join

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples"
EXAMPLE_PLUGINS = EXAMPLES_DIR / "plugins"
EXAMPLE_HOST = EXAMPLES_DIR / "host.yaml"
DEFAULT_SCRIPT = EXAMPLES_DIR / "default.pas"
MAX_SCRIPT_BYTES = 1024 * 1024


@dataclass(frozen=True, slots=True, kw_only=True)
class SimulationStep:
    """One command and what the reference scheduler observed for it."""

    command: ScriptCommand
    observation: Observation


@dataclass(frozen=True, slots=True, kw_only=True)
class Simulation:
    """The outcome of :func:`simulate`.

    ``problems`` are about the plugin and host files (errors stop the simulation, warnings
    do not); ``script_problems`` are about the script. Steps are empty unless :attr:`ok`.
    """

    plugins_source: str
    host_source: str
    manifests: tuple[Manifest, ...] = ()
    host: HostConfig | None = None
    steps: tuple[SimulationStep, ...] = ()
    problems: tuple[Problem, ...] = ()
    script_problems: tuple[Problem, ...] = ()

    @property
    def ok(self) -> bool:
        """True when no error stopped the simulation."""
        return not self.script_problems and all(p.severity is not Severity.ERROR for p in self.problems)


def read_script(path: Path | str) -> tuple[str | None, tuple[Problem, ...]]:
    """Read a script file as UTF-8; an unreadable, oversized or non-UTF-8 file is a problem."""
    where = SourceLocation(path=str(path))
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        return None, (Problem(code="unreadable", message=f"cannot read the script: {error.strerror or error}",
                              source=where),)
    if len(data) > MAX_SCRIPT_BYTES:
        return None, (Problem(code="file-too-large", message=f"the script is larger than {MAX_SCRIPT_BYTES} bytes",
                              source=where),)
    try:
        return data.decode("utf-8-sig"), ()
    except UnicodeDecodeError:
        return None, (Problem(code="invalid-utf8", message="the script is not UTF-8 text; save it as UTF-8",
                              source=where),)



# --- plugin and host files --------------------------------------------------------------

_WHERE_KIND_GOES = {"plugin-manifest": "put it in the --plugins folder", "host-config": "pass it with --host"}


def _load_document(path: Path, schema: str, build: Callable[[Any], Any]) -> tuple[Any, YamlDocument | None, list[Problem]]:
    """Load, schema-check and build one document; the value is None when there are problems."""
    doc, problems = load_mapping(path)
    if doc is None:
        return None, None, problems
    kind = doc.value.get("kind")
    if kind in _WHERE_KIND_GOES and kind != schema:
        return None, doc, [Problem(code="wrong-kind", message=f"this is a {kind}; {_WHERE_KIND_GOES[kind]}",
                                   pointer="/kind", source=doc.where("/kind"))]
    problems = check_with_hints(schema, doc)
    if problems:
        return None, doc, problems
    try:
        return build(doc.value), doc, []
    except MalformedDocument as error:  # the schema should have caught it; report, never raise
        pointer = f"/{error.field}" if error.field else ""
        return None, doc, [Problem(code="malformed", message=str(error), pointer=pointer, source=doc.where(pointer))]


def load_plugins(directory: Path | str) -> tuple[tuple[Manifest, ...], tuple[Problem, ...]]:
    """Load every manifest (``*.yaml``, ``*.yml``, ``*.json``) under ``directory``, in path order.

    The folder is walked by :func:`conformance.documents.walk.walk_folder` (recursive, each file
    once, special files refused), as by ``pas host plan`` and ``pas validate``. Returns the
    manifests that loaded and every problem: a missing or empty folder, file and schema
    problems, and module names declared twice.
    """
    folder = Path(directory)
    where = SourceLocation(path=str(folder))
    if not folder.exists():
        return (), (Problem(code="missing-directory", message="the plugin folder does not exist", source=where),)
    if not folder.is_dir():
        return (), (Problem(code="not-a-directory", message="--plugins needs a folder of manifests", source=where),)
    walk = walk_folder(folder)
    if not walk.files and not walk.problems:
        suffixes = ", ".join(DOCUMENT_SUFFIXES)
        return (), (Problem(code="no-manifests", message=f"the folder holds no manifest files ({suffixes})",
                            source=where),)
    files = walk.files
    manifests: dict[str, tuple[Manifest, Path]] = {}
    problems: list[Problem] = list(walk.problems)
    for path in files:
        manifest, doc, file_problems = _load_document(path, "plugin-manifest", Manifest.from_json)
        problems += file_problems
        if manifest is None or doc is None:  # a manifest is only ever built from a loaded document
            continue
        if manifest.module_name in manifests:
            first = manifests[manifest.module_name][1]
            problems.append(Problem(code="duplicate-module-name",
                                    message=f"module_name '{manifest.module_name}' is already declared by {first}; "
                                    "rename one of them", pointer="/module_name", source=doc.where("/module_name")))
            continue
        manifests[manifest.module_name] = (manifest, path)
    return tuple(m for m, _ in manifests.values()), tuple(problems)


def load_host(path: Path | str) -> tuple[HostConfig | None, YamlDocument | None, tuple[Problem, ...]]:
    """Load and check a host config; the config is None when it has problems."""
    host, doc, problems = _load_document(Path(path), "host-config", HostConfig.from_json)
    return host, doc, tuple(problems)


def _host_warnings(host: HostConfig, doc: YamlDocument, manifests: Sequence[Manifest]) -> list[Problem]:
    """Names in the host config that match no manifest (HOST-LOAD-2: skipped with a warning)."""
    known = {m.module_name for m in manifests}
    named = [(pointer_join("/enabled", i), name, False) for i, name in enumerate(host.enabled)]
    named += [(pointer_join("/strategies", name), name, True) for name in host.strategies]
    return [
        Problem(code="unknown-plugin", severity=Severity.WARNING, pointer=pointer,
                message=f"no plugin in the folder has module_name '{name}'; it is ignored",
                source=doc.where(pointer, key=on_key))
        for pointer, name, on_key in named
        if name not in known
    ]


# --- the simulation ---------------------------------------------------------------------


def simulate(
    script: str,
    *,
    plugins: Path | str | None = None,
    host: Path | str | None = None,
    script_name: str = "script",
    text: bool = False,
) -> Simulation:
    """Run ``script`` on the reference scheduler and return every step's observation.

    ``plugins`` defaults to the bundled example set. ``host`` defaults to the bundled example
    host config when ``plugins`` is also left out, and otherwise to a config that enables
    every plugin of the folder. ``text`` adds the reference prompt and reply text. Input
    problems are returned in the result, never raised.
    """
    from reference_impl.engine import Engine

    plugins_dir = Path(plugins) if plugins is not None else EXAMPLE_PLUGINS
    host_path = Path(host) if host is not None else (EXAMPLE_HOST if plugins is None else None)
    commands, script_problems = parse_script(script, script_name)
    manifests, plugin_problems = load_plugins(plugins_dir)
    problems = list(plugin_problems)
    if host_path is None:
        config: HostConfig | None = HostConfig(enabled=tuple(m.module_name for m in manifests))
    else:
        config, doc, host_problems = load_host(host_path)
        problems += host_problems
        if config is not None and doc is not None and manifests:
            problems += _host_warnings(config, doc, manifests)
    result = Simulation(plugins_source=str(plugins_dir), host_source=str(host_path or "(every plugin enabled)"),
                        manifests=manifests, host=config, problems=tuple(problems), script_problems=script_problems)
    if not result.ok:
        return result
    assert config is not None  # a host config that did not load is an error problem, so not ok
    engine = Engine(text=text)
    engine.start(manifests, config)
    steps = []
    for command in commands:
        observation = engine.apply(command.event)
        assert isinstance(observation, Observation)  # a scheduler event is never answered by the host
        steps.append(SimulationStep(command=command, observation=observation))
    return replace(result, steps=tuple(steps))
