"""Scenarios: frozen values, and the loader that turns suite files into them.

A scenario file is checked against spec/schemas/scenario.schema.yaml first; every problem
(schema, unknown fixture, bad manifest) is returned with file, line and JSON pointer. Each
step's event is read by its row of the step table (conformance.documents.step_table), the
rows ``pas fuzz`` writes steps with.

Host scenarios (profile ``host``) are made of host steps only (``host_load`` first); each
step's event is then a host command of ``reference_impl.host_commands`` and its expectations a
:class:`HostExpectation`. Disclosure scenarios (profile ``disclosure``) have a ``tools`` catalogue,
the options they ``require``, and disclosure steps only; their first event, before any step, is
``disclosure-start`` with the catalogue (:attr:`Scenario.opening`). Their rules beyond the schema
are :mod:`conformance.suite.disclosure_checks`.

Where each step was written (its line and column, for a report naming a failing step) is found
only when asked for: most scenario files are read by the YAML fast path, which keeps no line
marks, and finding them costs more than reading the file (loading the suite at every ``pas run``
would pay it for every step of every file, and nearly no step ever fails). A step holds a
:class:`~conformance.documents.yamldoc.Place` instead (file, JSON pointer; frozen and picklable
like the rest of the Scenario, holding no text), which reads the file again with the event
loader when its location is first asked for, once per file (cached). A file the event loader
read already gives its locations at once. A file edited after it was loaded may name where the
step now stands, or only the file (see ``Place``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.documents.loader import YamlDocument, load_mapping
from conformance.documents.schemas import check_against
from conformance.documents.step_form import StepContext
from conformance.documents.step_table import DISCLOSURE_KEYS, HOST_KEYS, ROWS
from conformance.documents.walk import walk_folder
from conformance.documents.yamldoc import Place, located
from conformance.suite.disclosure_checks import check_disclosure_steps
from conformance.suite.host_checks import HOST_EXPECTATION_KEYS, check_host_steps
from conformance.suite.scenario_plugins import FIXTURES_FILE, check_plugins, load_fixtures, plugin_manifests
from conformance.suite.scenario_plugins import copies_of as copies_of  # where callers found them first
from conformance.suite.scenario_plugins import plugin_documents as plugin_documents
from reference_impl.disclosure_commands import DisclosureEvent, DisclosureStart, Tool
from reference_impl.events import Event
from reference_impl.frozen import EMPTY, FrozenMap, freeze
from reference_impl.host_commands import HOST_COMMAND_TYPES, Behaviour, HostCommand, Load, command_to_json
from reference_impl.model import HostConfig, Manifest, Profile
from reference_impl.problems import Problem, Severity, SourceLocation

SUITE_DIR = FIXTURES_FILE.parent


@dataclass(frozen=True, slots=True, kw_only=True)
class TextExpectation:
    """Checks on the reference text of a step (text profile only)."""

    equals: str | None = None
    contains: tuple[str, ...] = ()
    not_contains: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class HostExpectation:
    """What a host step must produce; None leaves a part unchecked.

    ``events``: the exact event list, each expected event compared on the keys it gives;
    ``problems``: compared as a multiset on code, severity and plugins (those given);
    ``load_order``, ``setup_order``, ``config``: exactly; ``provenance``: pointer -> layer,
    checked only when the host returns provenance (HOST-CFG-6 is a SHOULD).
    """

    events: tuple[Mapping[str, Any], ...] | None = None
    problems: tuple[Mapping[str, Any], ...] | None = None
    load_order: tuple[str, ...] | None = None
    setup_order: tuple[str, ...] | None = None
    config: Mapping[str, Any] | None = None
    provenance: Mapping[str, str] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Step:
    """One event (or host command) with what it must produce.

    ``at``: where the step was written, or a :class:`~conformance.documents.yamldoc.Place` that
    finds it when :attr:`source` is first asked for (see the module docstring).
    """

    index: int
    action: str
    event: Event | HostCommand | DisclosureEvent
    expect: Mapping[str, Any] = field(default_factory=dict)
    shown: tuple[str, ...] | None = None
    order: tuple[str, ...] | None = None
    answers: tuple[Mapping[str, Any], ...] | None = None
    text: TextExpectation | None = None
    host: HostExpectation | None = None
    covers: tuple[str, ...] = ()
    note: str = ""
    at: SourceLocation | Place | None = None

    @property
    def source(self) -> SourceLocation | None:
        """Where the step was written (file, line, column), found now if its file was read without marks."""
        return None if self.at is None else located(self.at)

    @property
    def pointer(self) -> str:
        """JSON pointer of this step in its scenario file."""
        return f"/steps/{self.index}"

    @property
    def is_host(self) -> bool:
        """Whether the step sends a host command (profile ``host``)."""
        return self.action in HOST_KEYS

    @property
    def is_disclosure(self) -> bool:
        """Whether the step sends a disclosure event (profile ``disclosure``)."""
        return self.action in DISCLOSURE_KEYS

    def event_json(self) -> dict[str, Any]:
        """The wire form of the step's event or host command (``{"cmd": ...}``)."""
        return command_to_json(self.event) if isinstance(self.event, HOST_COMMAND_TYPES) else self.event.to_json()


@dataclass(frozen=True, slots=True, kw_only=True)
class Scenario:
    """A complete scenario: plugins, host config, steps, and what it covers.

    ``split_writes``: over stdio, each request line is written in pieces (a transport scenario).
    ``introduced_in``: the spec version (major.minor) whose suite first held it; '' for a
    scenario of your own that names none (it then runs under every version).
    """

    id: str
    title: str
    covers: tuple[str, ...]
    steps: tuple[Step, ...]
    profiles: tuple[str, ...] = (Profile.ACTIVATION,)
    description: str = ""
    plugins: tuple[Manifest, ...] = ()
    host: HostConfig = field(default_factory=HostConfig)
    environment: Mapping[str, str] = field(default_factory=dict)
    overrides: tuple[str, ...] = ()
    behaviour: Behaviour = field(default_factory=Behaviour)
    split_writes: bool = False
    tools: tuple[Tool, ...] = ()
    requires: Mapping[str, tuple[Any, ...]] = EMPTY
    introduced_in: str = ""
    path: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "requires", FrozenMap(self.requires))

    @property
    def is_host(self) -> bool:
        """Whether this is a host scenario (its steps are host commands, the first a load)."""
        return any(step.is_host for step in self.steps)

    @property
    def is_disclosure(self) -> bool:
        """Whether this is a disclosure scenario (profile ``disclosure``: a catalogue, then disclosure steps)."""
        return Profile.DISCLOSURE in self.profiles

    @property
    def opening(self) -> DisclosureStart:
        """A disclosure scenario's first event, before its steps: its catalogue, which forgets all earlier state."""
        return DisclosureStart(tools=self.tools)

    @property
    def requirements(self) -> tuple[str, ...]:
        """Every requirement the scenario or any of its steps names, in first-seen order."""
        seen = dict.fromkeys(self.covers)
        for step in self.steps:
            seen.update(dict.fromkeys(step.covers))
        return tuple(seen)


def _host_expectation(raw: Mapping[str, Any]) -> HostExpectation | None:
    if not any(key in raw for key in HOST_EXPECTATION_KEYS):
        return None
    listed = {key: tuple(raw[key]) for key in ("events", "problems", "load_order", "setup_order") if key in raw}
    return HostExpectation(**listed, config=raw.get("config"), provenance=raw.get("provenance"))


def _step(index: int, raw: Mapping[str, Any], doc: YamlDocument, context: StepContext) -> Step:
    """One step, its event read through ``context`` (the steps before may have moved an adapter)."""
    action = next(key for key in ROWS if key in raw)
    text = raw.get("text")
    return Step(
        index=index,
        action=action,
        event=ROWS[action].read(raw[action], context),
        host=_host_expectation(raw),
        expect=raw.get("expect", {}),
        shown=tuple(raw["shown"]) if "shown" in raw else None,
        order=tuple(raw["order"]) if "order" in raw else None,
        answers=freeze(raw["answers"]) if "answers" in raw else None,
        text=TextExpectation(
            equals=text.get("equals"), contains=tuple(text.get("contains", ())),
            not_contains=tuple(text.get("not_contains", ())),
        ) if text else None,
        covers=tuple(raw.get("covers", ())),
        note=raw.get("note", ""),
        at=doc.place(f"/steps/{index}"),  # its line is found only if a report asks for it
    )


def check_scenario(doc: YamlDocument, fixtures_path: Path = FIXTURES_FILE, *, check_schema: bool = True) -> list[Problem]:
    """Every problem of a loaded scenario document, in one pass: schema, fixtures, plugins, host steps.

    The rules after the schema need a schema-valid document, so a schema problem ends the check.
    ``check_schema=False`` is only for the bundled suite, which the project's tests validate.
    """
    problems = check_against("scenario", doc) if check_schema else []
    if problems:
        return problems
    fixtures, fixture_problems = load_fixtures(fixtures_path, check_schema)
    if fixture_problems:
        return list(fixture_problems)
    return check_plugins(doc, fixtures, check_schema) + check_host_steps(doc) + check_disclosure_steps(doc)


def _host(raw: Mapping[str, Any], manifests: Iterable[Manifest]) -> HostConfig:
    raw = dict(raw)
    raw.setdefault("enabled", [m.module_name for m in manifests if not m.builtin])
    return HostConfig.from_json(raw)


def build_scenario(doc: YamlDocument, fixtures_path: Path = FIXTURES_FILE) -> Scenario:
    """The Scenario of a document that :func:`check_scenario` found valid."""
    raw = doc.value
    manifests = plugin_manifests(doc, fixtures_path)
    adapters = {c: spec["adapter"] for c, spec in raw.get("conversations", {}).items() if "adapter" in spec}
    host = _host(raw.get("host", {}), manifests)
    load = Load(plugins=tuple(manifests), host=host, environment=dict(raw.get("environment", {})),
                overrides=tuple(raw.get("overrides", ())), behaviour=Behaviour.from_json(raw.get("behaviour", {})))
    context = StepContext(adapters=adapters, load=load)
    return Scenario(
        id=raw["id"],
        title=raw["title"],
        covers=tuple(raw["covers"]),
        profiles=tuple(raw.get("profiles", (Profile.ACTIVATION,))),
        description=raw.get("description", ""),
        plugins=tuple(manifests),
        host=host,
        environment=load.environment,
        overrides=load.overrides,
        behaviour=load.behaviour,
        split_writes=bool(raw.get("split_writes", False)),
        steps=tuple(_step(i, step, doc, context) for i, step in enumerate(raw["steps"])),
        tools=tuple(Tool.from_json(tool) for tool in raw.get("tools", ())),
        requires={option: tuple(values) for option, values in raw.get("requires", {}).items()},
        introduced_in=raw.get("introduced_in", ""),
        path=doc.path,
    )


def parse_scenario(
    doc: YamlDocument, fixtures_path: Path = FIXTURES_FILE, *, check_schema: bool = True
) -> tuple[Scenario | None, list[Problem]]:
    """Check a loaded scenario document once, then build it once; problems when it is invalid."""
    problems = check_scenario(doc, fixtures_path, check_schema=check_schema)
    if problems:
        return None, problems
    return build_scenario(doc, fixtures_path), []


def load_scenario(
    path: Path | str, fixtures_path: Path = FIXTURES_FILE, *, check_schema: bool = True
) -> tuple[Scenario | None, list[Problem]]:
    """Load one scenario file."""
    doc, problems = load_mapping(path)
    if doc is None:
        return None, problems
    return parse_scenario(doc, fixtures_path, check_schema=check_schema)


def scenario_files(paths: Iterable[Path | str] = ()) -> list[Path]:
    """The scenario files named by ``paths`` (see :func:`find_scenario_files`), without the problems."""
    return find_scenario_files(paths)[0]


def find_scenario_files(paths: Iterable[Path | str] = ()) -> tuple[list[Path], list[Problem]]:
    """The scenario files named by ``paths`` (files or folders; the bundled suite when empty), and problems.

    Folders are walked by :func:`conformance.documents.walk.walk_folder` (recursive, sorted,
    each real file once, special files refused; ``fixtures.yaml`` is not a scenario). A folder
    holding no scenario file is a ``path-not-found`` problem naming it.
    """
    paths = list(paths) or [SUITE_DIR]
    found: list[Path] = []
    problems: list[Problem] = []
    for path in map(Path, paths):
        if not path.is_dir():
            found.append(path)
            continue
        walk = walk_folder(path, exclude=frozenset({FIXTURES_FILE.name}))
        problems += [p for p in walk.problems if p.severity is Severity.ERROR]
        found += walk.files
        if not walk.files and not walk.problems:
            problems.append(Problem(code="path-not-found", source=SourceLocation(path=str(path)),
                                    message="the scenario folder holds no scenario file (*.yaml, *.yml, *.json)"))
    return found, problems


def load_suite(
    paths: Iterable[Path | str] = (), *, check_schema: bool | None = None
) -> tuple[list[Scenario], list[Problem]]:
    """Load every scenario under ``paths`` (the bundled suite when empty); duplicate ids are problems.

    Files are checked against the scenario schema unless ``check_schema`` is False; by default
    the bundled suite is not re-checked (half the start-up time of ``pas run``): its files
    ship with the package and tests/conformance/suite checks each of them against the schema.
    """
    paths = list(paths)
    if check_schema is None:
        check_schema = bool(paths)
    scenarios: list[Scenario] = []
    first_path: dict[str, str] = {}
    files, problems = find_scenario_files(paths)
    for path in files:
        scenario, found = load_scenario(path, check_schema=check_schema)
        problems += found
        if scenario is None:
            continue
        if scenario.id in first_path:
            problems.append(Problem(code="duplicate-scenario-id", pointer="/id", source=SourceLocation(path=str(path)),
                                    message=f"id {scenario.id!r} is also used by {first_path[scenario.id]}; ids are never reused"))
            continue
        first_path[scenario.id] = str(path)
        scenarios.append(scenario)
    return scenarios, problems
