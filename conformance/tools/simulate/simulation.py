"""``pas simulate``: drive the reference scheduler with a tiny script and record what it shows.

The script language is :mod:`conformance.tools.simulate.script`; this module reads the script
file, loads the plugin and host files through the one loader
(:func:`conformance.documents.plugin_set.load_plugin_set`, the loading ``pas validate`` does),
and runs the commands on the reference engine. A script with disclosure commands (``request``,
``load`` ...) runs them on a catalogue (``tools:`` of a YAML or JSON file, the bundled
:data:`EXAMPLE_TOOLS` unless given) under the disclosure options given (the defaults unless given),
the catalogue sent first as a disclosure scenario sends it.
Nothing here prints: :func:`simulate` returns a frozen :class:`Simulation` and
``conformance.tools.simulate.report`` renders it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from conformance.documents.loader import YamlDocument, load_mapping
from conformance.documents.plugin_set import PluginSet, load_plugin_set
from conformance.documents.schemas import check_against
from conformance.tools.simulate.script import ScriptCommand, parse_script
from reference_impl.disclosure import NotApplicable
from reference_impl.disclosure_answers import DisclosureObservation
from reference_impl.disclosure_commands import DISCLOSURE_TYPES, DisclosureStart, Tool
from reference_impl.disclosure_options import Options
from reference_impl.events import Observation
from reference_impl.host_observations import HostObservation
from reference_impl.model import HostConfig, Manifest
from reference_impl.problems import Problem, Severity, SourceLocation, pointer_join

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples"
EXAMPLE_PLUGINS = EXAMPLES_DIR / "plugins"
EXAMPLE_HOST = EXAMPLES_DIR / "host.yaml"
EXAMPLE_TOOLS = Path(__file__).resolve().parent / "tools.yaml"  # not under examples/: pas validate reads that folder
DEFAULT_SCRIPT = EXAMPLES_DIR / "default.pas"
MAX_SCRIPT_BYTES = 1024 * 1024


@dataclass(frozen=True, slots=True, kw_only=True)
class SimulationStep:
    """One command and what the reference scheduler observed for it."""

    command: ScriptCommand
    observation: Observation | DisclosureObservation


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
    tools_source: str = ""  # '' when the script has no disclosure command
    tools: tuple[Tool, ...] = ()
    declared: Options = field(default_factory=Options)
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


@dataclass(frozen=True, slots=True, kw_only=True)
class Inputs:
    """The plugin set and host config a simulation runs on, with their names for reports.

    The host config defaults to the bundled example's when ``plugins`` is left out too, and
    otherwise to one that enables every plugin of the set.
    """

    plugins: PluginSet
    host: HostConfig | None
    plugins_source: str
    host_source: str
    problems: tuple[Problem, ...] = ()

    @property
    def ok(self) -> bool:
        """True when no error stops a simulation on these inputs."""
        return all(p.severity is not Severity.ERROR for p in self.problems)


def load_inputs(plugins: Path | str | None = None, host: Path | str | None = None) -> Inputs:
    """Load the plugin set and host config through the one loader (:func:`load_plugin_set`); never raises."""
    plugins_dir = Path(plugins) if plugins is not None else EXAMPLE_PLUGINS
    host_path = Path(host) if host is not None else (EXAMPLE_HOST if plugins is None else None)
    loaded = load_plugin_set(plugins_dir, host_path)
    problems = list(loaded.problems)
    config = loaded.host
    if host_path is None:
        config = HostConfig(enabled=tuple(m.module_name for m in loaded.manifests))
    elif config is not None and loaded.host_doc is not None and loaded.manifests:
        problems += _host_warnings(config, loaded.host_doc, loaded.manifests)
    return Inputs(plugins=loaded, host=config, plugins_source=str(plugins_dir),
                  host_source=str(host_path or "(every plugin enabled)"), problems=tuple(problems))


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


def load_tools(path: Path | str | None = None) -> tuple[tuple[Tool, ...], tuple[Problem, ...]]:
    """The catalogue of a tools file (``tools: [...]``; :data:`EXAMPLE_TOOLS` when None), or its problems at file:line."""
    doc, problems = load_mapping(path if path is not None else EXAMPLE_TOOLS)
    if doc is None:
        return (), tuple(problems)
    found = check_against("disclosure-start-request", doc, value={"id": 1, "cmd": "disclosure-start", **doc.value})
    for problem in found:  # the id and cmd are ours, not the file's: a missing tools key is the file's
        problem_source = problem.source if problem.source is not None else SourceLocation(path=doc.path)
        problems.append(replace(problem, source=problem_source))
    if problems:
        return (), tuple(problems)
    return tuple(Tool.from_json(tool) for tool in doc.value["tools"]), ()


def simulate(
    script: str,
    *,
    plugins: Path | str | None = None,
    host: Path | str | None = None,
    script_name: str = "script",
    text: bool = False,
    tools: Path | str | None = None,
    disclosure: Options | None = None,
) -> Simulation:
    """Run ``script`` on the reference scheduler and return every step's observation.

    ``plugins`` defaults to the bundled example set, ``host`` as :func:`load_inputs` says,
    ``tools`` (read only when the script has a disclosure command) to :data:`EXAMPLE_TOOLS`,
    ``disclosure`` to the default options. ``text`` adds the reference prompt and reply text.
    Input problems are returned in the result, never raised.
    """
    return run_script(script, load_inputs(plugins, host), script_name=script_name, text=text, tools=tools,
                      disclosure=disclosure)


def run_script(script: str, inputs: Inputs, *, script_name: str = "script", text: bool = False,
               tools: Path | str | None = None, disclosure: Options | None = None) -> Simulation:
    """Run ``script`` on loaded ``inputs`` (see :func:`simulate`); nothing runs when the inputs have errors.

    A disclosure command the options do not offer (a search under load_by_name) is a script
    problem at its line, and ends the simulation.
    """
    from reference_impl.engine import Engine

    commands, script_problems = parse_script(script, script_name)
    manifests = inputs.plugins.manifests
    declared = disclosure if disclosure is not None else Options()
    result = Simulation(plugins_source=inputs.plugins_source, host_source=inputs.host_source, manifests=manifests,
                        host=inputs.host, problems=inputs.problems, script_problems=script_problems, declared=declared)
    if any(isinstance(c.event, DISCLOSURE_TYPES) for c in commands):
        catalogue, problems = load_tools(tools)
        result = replace(result, tools=catalogue, tools_source=str(tools or EXAMPLE_TOOLS),
                         problems=(*result.problems, *problems))
    if not result.ok:
        return result
    assert inputs.host is not None  # a host config that did not load is an error problem, so not ok
    engine = Engine(text=text, disclosure=declared)
    engine.start(manifests, inputs.host)
    engine.apply(DisclosureStart(tools=result.tools))
    steps = []
    for command in commands:
        try:
            observation = engine.apply(command.event)
        except NotApplicable as error:
            where = SourceLocation(path=script_name, line=command.line, column=command.column)
            return replace(result, script_problems=(Problem(code="not-applicable", message=f"{error.reason} "
                           f"(declared: {declared.to_text() or 'the defaults'}; see --disclosure)", source=where),))
        assert not isinstance(observation, HostObservation)  # a scheduler or disclosure event is never answered by the host
        steps.append(SimulationStep(command=command, observation=observation))
    return replace(result, steps=tuple(steps))
