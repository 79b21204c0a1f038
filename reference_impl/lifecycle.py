"""Register and validate (HOST-LOAD-*, HOST-VAL-*), and the lifecycle order (HOST-LIFE-*).

Pure functions over module names: ``dependencies`` maps each module to the modules it
declares it depends on (manifest order). Nothing here runs plugin code.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from reference_impl.catalogue import Catalogue
from reference_impl.host_config import (
    READING,
    Merge,
    Reading,
    build_configs,
    check_config,
    deep_merge,
)
from reference_impl.host_observations import MergedConfig
from reference_impl.model import HostConfig, Manifest
from reference_impl.problems import Origin, Problem, Severity, SourceKind, pointer_of

Dependencies = Mapping[str, Sequence[str]]
Order = Callable[[Sequence[str], Dependencies, frozenset[str]], tuple[str, ...]]
HookRunner = Callable[[Sequence[str], Callable[[str], bool]], Sequence[tuple[str, bool]]]


def load_order(manifests: Sequence[Manifest], host: HostConfig) -> tuple[tuple[str, ...], tuple[Problem, ...]]:
    """Built-ins in installation order, then ``host.enabled`` as listed; disabled plugins are not loaded.

    An enabled entry naming no installed plugin is skipped with a ``plugin-not-found``
    warning (HOST-LOAD-2). Raises DuplicateModule when two manifests share a module_name.
    """
    catalogue = Catalogue.of(manifests)
    order = tuple(m for m in catalogue.load_order(host) if m not in host.disabled)
    problems = tuple(
        Problem(code="plugin-not-found", severity=Severity.WARNING, plugins=(name,),
                    origin=Origin(kind=SourceKind.HOST_CONFIG, pointer=pointer_of(("enabled", str(index)))),
                    message=f"enabled plugin '{name}' is not installed; it is skipped")
        for index, name in enumerate(host.enabled) if name not in catalogue.manifests
    )
    return order, problems


def missing_dependencies(manifests: Sequence[Manifest], order: Sequence[str],
                         host: HostConfig) -> tuple[Problem, ...]:
    """A ``missing-dependency`` error for every dependency of a loaded plugin that is not loaded (HOST-VAL-1)."""
    installed = {m.module_name: m for m in manifests}
    loaded = set(order)
    problems = []
    for name in order:
        for index, dependency in enumerate(installed[name].dependencies):
            if dependency in loaded:
                continue
            if dependency not in installed:
                why = "which is not installed; install it or remove the dependency"
            elif dependency in host.disabled:
                why = "which is disabled; enable it or remove the dependency"
            else:
                why = "which is installed but not enabled; add it to enabled"
            problems.append(Problem(
                code="missing-dependency", plugins=(name, dependency),
                origin=Origin(kind=SourceKind.MANIFEST, name=name, pointer=pointer_of(("dependencies", str(index)))),
                message=f"plugin '{name}' depends on '{dependency}', {why}"))
    return tuple(problems)


def _shortest_cycle(start: str, dependencies: Dependencies, loaded: set[str]) -> tuple[str, ...] | None:
    """The shortest path start -> ... -> start along dependencies, trying them in declared order."""
    previous: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for dependency in dependencies.get(node, ()):
            if dependency not in loaded:
                continue
            if dependency == start:
                path = [node]
                while path[-1] != start:
                    path.append(previous[path[-1]])
                return (start, *reversed(path[:-1]), start) if node != start else (start, start)
            if dependency not in previous:
                previous[dependency] = node
                queue.append(dependency)
    return None


def dependency_cycles(order: Sequence[str], dependencies: Dependencies) -> tuple[tuple[str, ...], ...]:
    """Cycles among the loaded plugins, each as a path ``a, b, ..., a`` (a depends on b ...).

    Every plugin on some cycle appears in at least one reported cycle: the earliest-loaded
    plugin not yet covered starts the next (shortest) cycle through it.
    """
    loaded = set(order)
    covered: set[str] = set()
    cycles = []
    for name in order:
        if name in covered:
            continue
        cycle = _shortest_cycle(name, dependencies, loaded)
        if cycle is not None:
            cycles.append(cycle)
            covered.update(cycle)
    return tuple(cycles)


def cycle_problems(order: Sequence[str], dependencies: Dependencies) -> tuple[Problem, ...]:
    """A ``dependency-cycle`` error per cycle, naming the plugins along it in order (HOST-VAL-2)."""
    problems = []
    for cycle in dependency_cycles(order, dependencies):
        index = list(dependencies[cycle[0]]).index(cycle[1])
        problems.append(Problem(
            code="dependency-cycle", plugins=cycle[:-1],
            origin=Origin(kind=SourceKind.MANIFEST, name=cycle[0], pointer=pointer_of(("dependencies", str(index)))),
            message=f"dependency cycle {' -> '.join(cycle)}; remove one of these dependencies"))
    return tuple(problems)


def setup_order(order: Sequence[str], dependencies: Dependencies,
                exclude: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """Kahn's algorithm: each plugin after its dependencies, ties by load order (HOST-LIFE-1).

    Plugins in ``exclude``, plugins with a dependency outside ``order`` and everything that
    depends on them, and plugins on a cycle are left out.
    """
    rank = {name: index for index, name in enumerate(order)}
    included = [name for name in order if name not in exclude]
    waiting = {name: set(dependencies.get(name, ())) for name in included}
    dependents: dict[str, list[str]] = {name: [] for name in included}
    for name in included:
        for dependency in waiting[name]:
            dependents.get(dependency, []).append(name)
    ready = [rank[name] for name in included if not waiting[name]]
    heapq.heapify(ready)
    result = []
    while ready:
        name = order[heapq.heappop(ready)]
        result.append(name)
        for dependent in dependents[name]:
            waiting[dependent].discard(name)
            if not waiting[dependent]:
                heapq.heappush(ready, rank[dependent])
    return tuple(result)


def dependents_of(roots: Sequence[str], order: Sequence[str], dependencies: Dependencies) -> Mapping[str, str]:
    """Every plugin that depends, directly or transitively, on one of ``roots`` -> the earliest-loaded such root.

    A root appears only when it depends on a root (itself, on a cycle); callers drop the roots.
    """
    rank = {name: index for index, name in enumerate(order)}
    causes: dict[str, str] = {}
    for root in sorted(set(roots), key=lambda r: rank.get(r, len(rank))):
        frontier = [root]
        while frontier:
            node = frontier.pop()
            for name in order:
                if node in dependencies.get(name, ()) and name not in causes:
                    causes[name] = root
                    frontier.append(name)
    return causes


@dataclass(frozen=True, slots=True, kw_only=True)
class SetupOutcome:
    """What happened to one plugin at setup: set up, failed, or skipped because ``cause`` failed."""

    module_name: str
    failed: bool = False
    cause: str = ""

    @property
    def set_up(self) -> bool:
        """Whether setup ran and succeeded."""
        return not self.failed and not self.cause


def run_setup(order: Sequence[str], dependencies: Dependencies, failing: frozenset[str],
              load: Sequence[str]) -> tuple[SetupOutcome, ...]:
    """Simulate setup along ``order`` (a setup order) where the plugins in ``failing`` fail (HOST-LIFE-3).

    A plugin with a failed or skipped dependency is skipped; its cause is the failed plugin it
    depends on, directly or transitively, that comes first in ``load`` (the load order, HOST-LIFE-5).
    """
    rank = {name: index for index, name in enumerate(load)}
    roots: dict[str, list[str]] = {}
    outcomes = []
    for name in order:
        inherited = [r for d in dependencies.get(name, ()) for r in roots.get(d, ())]
        if inherited:
            cause = min(inherited, key=lambda root: rank.get(root, len(rank)))
            roots[name] = inherited
            outcomes.append(SetupOutcome(module_name=name, cause=cause))
        elif name in failing:
            roots[name] = [name]
            outcomes.append(SetupOutcome(module_name=name, failed=True))
        else:
            outcomes.append(SetupOutcome(module_name=name))
    return tuple(outcomes)


def run_hooks(subscribers: Sequence[str], raises: Callable[[str], bool]) -> tuple[tuple[str, bool], ...]:
    """Call every subscriber in order; one that raises is recorded and the rest still run (HOST-HOOK-2)."""
    return tuple((name, raises(name)) for name in subscribers)


def reverse_order(done: Sequence[str], load: Sequence[str]) -> tuple[str, ...]:
    """The stop/teardown order: exactly the reverse of the start/setup order ``done`` (HOST-LIFE-2).

    ``load`` (the load order) is unused by the reference; broken hosts use it.
    """
    return tuple(reversed(done))


@dataclass(frozen=True, slots=True, kw_only=True)
class HostPlan:
    """The outcome of register + validate: orders, problems, configs, who will not be set up.

    ``invalid`` maps each plugin named by an error to its problem codes; ``blocked`` maps each
    plugin depending on an invalid one to the earliest-loaded such invalid plugin.
    """

    load_order: tuple[str, ...] = ()
    setup_order: tuple[str, ...] = ()
    problems: tuple[Problem, ...] = ()
    configs: Mapping[str, MergedConfig] = field(default_factory=dict)
    invalid: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    blocked: Mapping[str, str] = field(default_factory=dict)
    dependencies: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    hooks: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


def makes_invalid(problem: Problem) -> bool:
    """Whether ``problem`` makes the plugins it names invalid: every error does (HOST-VAL-5)."""
    return problem.severity is Severity.ERROR


def plan(manifests: Sequence[Manifest], host: HostConfig, environment: Mapping[str, str] = MappingProxyType({}),
         overrides: Sequence[str] = (), *, merge: Merge = deep_merge, order_by: Order = setup_order,
         reading: Reading = READING, invalidates: Callable[[Problem], bool] = makes_invalid) -> HostPlan:
    """Register and validate ``manifests`` (installation order) under ``host``: no plugin is set up.

    ``environment`` is the process environment (only ``PAS__`` variables are read),
    ``overrides`` the command-line ``module.key=value`` values; ``merge``, ``order_by``,
    ``reading`` and ``invalidates`` are replaced only by deliberately broken hosts. Raises
    DuplicateModule when two manifests share a module_name.
    """
    order, load_problems = load_order(manifests, host)
    index = {m.module_name: m for m in manifests}
    dependencies = {name: index[name].dependencies for name in order}
    configs, config_problems = build_configs(manifests, order, host, environment, overrides, merge, reading)
    problems = (*load_problems, *missing_dependencies(manifests, order, host), *cycle_problems(order, dependencies),
                *config_problems, *(p for name in order for p in check_config(index[name], configs[name])))
    invalid: dict[str, tuple[str, ...]] = {}
    for problem in problems:
        for name in problem.plugins:
            if invalidates(problem) and name in dependencies:
                invalid[name] = (*invalid.get(name, ()), problem.code)
    blocked = {n: c for n, c in dependents_of(list(invalid), order, dependencies).items() if n not in invalid}
    return HostPlan(
        load_order=order, problems=problems, configs=configs, dependencies=dependencies,
        invalid={n: invalid[n] for n in order if n in invalid}, blocked={n: blocked[n] for n in order if n in blocked},
        setup_order=order_by(order, dependencies, frozenset(invalid) | frozenset(blocked)),
        hooks={name: index[name].hooks for name in order},
    )
