"""Checks on a host implementation, shared by the property tests and the broken-fake tests.

A :class:`World` is one host set-up (plugins, host config, overrides, simulated behaviour).
:func:`run_world` drives a host implementation through load, start, one dispatch per hook,
read-config per loaded plugin and stop, and keeps every observation as JSON (the wire form,
so that the same checks can later run on observations from any host). Each ``check_*``
compares those observations with small independent models written here, and returns the
violations as sentences (empty: the host behaved). Worlds are expected to be valid (every
dependency loaded, no cycle), which is what :func:`worlds` generates.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from reference_impl.frozen import thaw
from reference_impl.host_commands import Behaviour, Dispatch, Load, ReadConfig, Start, Stop
from reference_impl.model import HostConfig, Manifest

HOOKS = ("before_tool_call", "after_tool_call", "session_end")
Run = dict[str, Any]


@dataclass(frozen=True)
class World:
    """One host set-up to run: plugins in installation order, host config, overrides, behaviour."""

    plugins: tuple[Manifest, ...]
    host: HostConfig
    behaviour: Behaviour = field(default_factory=Behaviour)
    overrides: tuple[str, ...] = ()


def manifest(name: str, *, deps: Sequence[str] = (), hooks: Sequence[str] = (), builtin: bool = False,
             defaults: Mapping[str, Any] | None = None, schema: Mapping[str, Any] | None = None) -> Manifest:
    """A minimal manifest for tests."""
    return Manifest(name=name.title(), module_name=name, version="1.0.0", description=f"the {name} plugin",
                    dependencies=tuple(deps), hooks=tuple(hooks), builtin=builtin,
                    config_defaults=dict(defaults or {}), config_schema=schema)


def run_world(factory: Callable[[], Any], world: World) -> Run:
    """Drive a fresh host through a whole lifecycle; every observation as JSON."""
    host = factory()
    load = host.apply(Load(plugins=world.plugins, host=world.host, overrides=world.overrides,
                           behaviour=world.behaviour)).to_json()
    start = host.apply(Start()).to_json()
    hooks = {hook: host.apply(Dispatch(hook=hook)).to_json() for hook in HOOKS}
    configs = {name: host.apply(ReadConfig(module_name=name)).to_json() for name in load["load_order"]}
    stop = host.apply(Stop()).to_json()
    return {"load": load, "start": start, "hooks": hooks, "configs": configs, "stop": stop}


def modules(observation: Mapping[str, Any], *kinds: str) -> list[str]:
    """The module names of the events of the given kinds, in order."""
    return [e["module_name"] for e in observation["events"] if e["event"] in kinds]


def expected_load_order(world: World) -> list[str]:
    """Built-ins in installation order, then enabled as listed; not installed or disabled left out."""
    installed = {m.module_name for m in world.plugins}
    order = [m.module_name for m in world.plugins if m.builtin]
    order += [n for n in dict.fromkeys(world.host.enabled) if n in installed and n not in order]
    return [n for n in order if n not in world.host.disabled]


def _deps(world: World) -> dict[str, tuple[str, ...]]:
    return {m.module_name: m.dependencies for m in world.plugins}


def transitive_dependents(world: World, roots: Iterable[str]) -> set[str]:
    """Every plugin depending, directly or not, on one of ``roots`` (roots excluded unless reached)."""
    deps, found, frontier = _deps(world), set(), list(roots)
    while frontier:
        node = frontier.pop()
        for name, needs in deps.items():
            if node in needs and name not in found:
                found.add(name)
                frontier.append(name)
    return found


def _prioritised_topological(names: Sequence[str], deps: Mapping[str, Sequence[str]]) -> list[str]:
    """The one order where each plugin follows its deps and, among the ready ones, the first in ``names`` goes."""
    done: list[str] = []
    while len(done) < len(names):
        ready = [n for n in names if n not in done and all(d in done for d in deps[n] if d in names)]
        if not ready:
            break
        done.append(ready[0])
    return done


def check_setup_order(world: World, run: Run) -> list[str]:
    """HOST-LIFE-1: set-up attempts follow dependencies, ties by load order."""
    attempted = modules(run["start"], "set_up", "setup_failed")
    deps = _deps(world)
    problems = [f"{name} was set up before its dependency {d}" for i, name in enumerate(attempted)
                for d in deps[name] if d not in attempted[:i]]
    load = [n for n in expected_load_order(world) if n in attempted]
    expected = _prioritised_topological(load, deps)
    if not problems and attempted != expected:
        problems.append(f"setup order {attempted} is not the load-order-prioritised topological order {expected}")
    return problems


def check_shutdown_reverse(world: World, run: Run) -> list[str]:
    """HOST-LIFE-2: stop is the reverse of start, teardown the reverse of setup."""
    problems = []
    started, set_up = modules(run["start"], "started"), modules(run["start"], "set_up")
    stopped, torn_down = modules(run["stop"], "stopped"), modules(run["stop"], "torn_down")
    if stopped != started[::-1]:
        problems.append(f"stopped {stopped}, expected the reverse of started {started}")
    if torn_down != set_up[::-1]:
        problems.append(f"torn down {torn_down}, expected the reverse of set up {set_up}")
    return problems


def check_isolation(world: World, run: Run) -> list[str]:
    """HOST-LIFE-3: a failed setup starts no dependent and every other plugin."""
    loaded = expected_load_order(world)
    failing = {n for n in world.behaviour.setup_fails if n in loaded}
    doomed = transitive_dependents(world, failing)
    started = modules(run["start"], "started")
    problems = [f"{n} was started although it depends on a failed plugin" for n in started if n in doomed]
    problems += [f"{n} was not started although nothing it needs failed" for n in loaded
                 if n not in doomed and n not in failing and n not in started]
    problems += [f"{n} failed setup but no setup_failed event says so" for n in sorted(failing - doomed)
                 if n not in modules(run["start"], "setup_failed")]
    for event in run["start"]["events"]:
        if event["event"] == "skipped" and event.get("cause") not in failing:
            problems.append(f"{event['module_name']} was skipped naming {event.get('cause')!r}, not a failed plugin")
    return problems


def check_hook_order(world: World, run: Run) -> list[str]:
    """HOST-HOOK-1/2: subscribers called in load order, all of them, failures recorded."""
    started = set(modules(run["start"], "started"))
    hooks_of = {m.module_name: m.hooks for m in world.plugins}
    problems = []
    for hook, observation in run["hooks"].items():
        expected = [n for n in expected_load_order(world) if n in started and hook in hooks_of[n]]
        called = modules(observation, "hook_called", "hook_failed")
        if called != expected:
            problems.append(f"hook {hook} called {called}, expected {expected}")
        failed = modules(observation, "hook_failed")
        wanted = [n for n in called if world.behaviour.raises(n, hook)]
        if failed != wanted:
            problems.append(f"hook {hook} recorded failures {failed}, expected {wanted}")
    return problems


def flat_merge(layers: Sequence[tuple[str, Mapping[str, Any]]]) -> tuple[dict[str, Any], dict[str, str]]:
    """An independent model of the layered deep merge, on flat paths: (config, pointer -> layer)."""
    flat: dict[tuple[str, ...], tuple[Any, str]] = {}
    for layer, tree in layers:
        for path, value in _leaf_items(tree, ()):
            below = [p for p in flat if p[: len(path)] == path and len(p) > len(path)]
            if value == {} and below:
                continue
            for p in below + [p for p in flat if path[: len(p)] == p and len(p) < len(path)]:
                del flat[p]
            flat[path] = (value, layer)
    config: dict[str, Any] = {}
    for path, (value, _) in flat.items():
        node = config
        for key in path[:-1]:
            node = node.setdefault(key, {})
        node[path[-1]] = value
    return config, {"".join("/" + k for k in path): layer for path, (_, layer) in flat.items()}


def _leaf_items(tree: Any, path: tuple[str, ...]) -> Iterable[tuple[tuple[str, ...], Any]]:
    if isinstance(tree, Mapping) and tree:
        for key, value in tree.items():
            yield from _leaf_items(value, (*path, key))
    elif path:
        yield path, tree


def _nest(override: str) -> dict[str, Any]:
    target, _, raw = override.partition("=")
    value: Any = json.loads(raw)
    for key in reversed(target.split(".")):
        value = {key: value}
    return value


def check_config_merge(world: World, run: Run) -> list[str]:
    """HOST-CFG-1/2/6: each plugin's config is defaults < file < command line, deep-merged, with layers."""
    problems = []
    for m in world.plugins:
        if m.module_name not in run["configs"]:
            continue
        layers = [("defaults", thaw(m.config_defaults)), ("file", thaw(world.host.config.get(m.module_name, {}))),
                  *[("command_line", _nest(o)[m.module_name]) for o in world.overrides
                    if o.split(".", 1)[0] == m.module_name]]
        config, provenance = flat_merge(layers)
        observed = run["configs"][m.module_name]
        if observed.get("config") != config:
            problems.append(f"{m.module_name} config {observed.get('config')} != expected {config}")
        layers_seen = {p: v["layer"] for p, v in observed.get("provenance", {}).items()}
        if layers_seen != provenance:
            problems.append(f"{m.module_name} provenance {layers_seen} != expected {provenance}")
    return problems


CHECKS = (check_setup_order, check_shutdown_reverse, check_isolation, check_hook_order, check_config_merge)


def violations(factory: Callable[[], Any], world: World) -> list[str]:
    """Every violation of every check for one world."""
    run = run_world(factory, world)
    return [problem for check in CHECKS for problem in check(world, run)]


# ---------------------------------------------------------------- hypothesis strategies
KEYS = st.sampled_from(["api", "units", "timeout", "retries", "tags", "mode"])
SCALARS = st.one_of(st.integers(-5, 5), st.booleans(), st.none(), st.text("abc", max_size=3))
VALUES = st.recursive(SCALARS | st.lists(SCALARS, max_size=2),
                      lambda inner: st.dictionaries(KEYS, inner, max_size=2), max_leaves=4)
TREES = st.dictionaries(KEYS, VALUES, max_size=3)


HOOK_SETS = st.frozensets(st.sampled_from(HOOKS))
# One plugin: dependencies (indexes; only lower ones are kept, so the graph is a DAG), hooks,
# built-in (only the first two may be), a sort key for the installation order, another for
# the enabled order, whether setup fails, and the hooks whose subscriber raises.
PLUGIN_SPECS = st.tuples(st.frozensets(st.integers(0, 6), max_size=3), HOOK_SETS, st.booleans(),
                         st.integers(0, 99), st.integers(0, 99), st.booleans(), HOOK_SETS)
OVERRIDES = st.tuples(st.integers(0, 6), st.lists(KEYS, min_size=1, max_size=2), VALUES)


def _world(specs: list[tuple], trees: list[tuple[Any, Any]] | None = None,
           overrides: Sequence[tuple[int, list[str], Any]] = ()) -> World:
    names = [f"p{i}" for i in range(len(specs))]
    plugins = [manifest(name, deps=[names[d] for d in sorted(deps) if d < i], hooks=sorted(hooks),
                        builtin=builtin and i < 2, defaults=trees[i][0] if trees else None)
               for i, (name, (deps, hooks, builtin, *_)) in enumerate(zip(names, specs))]
    installed = [plugins[i] for i in sorted(range(len(specs)), key=lambda i: (specs[i][3], i))]
    enabled = [names[i] for i in sorted(range(len(specs)), key=lambda i: (specs[i][4], i)) if not plugins[i].builtin]
    files = {name: trees[i][1] for i, name in enumerate(names) if trees and trees[i][1]}
    behaviour = Behaviour(setup_fails=frozenset(n for n, spec in zip(names, specs) if spec[5]),
                          hook_raises={n: spec[6] for n, spec in zip(names, specs) if spec[6]})
    texts = tuple(_override(names[m % len(names)], keys, value) for m, keys, value in overrides)
    return World(plugins=tuple(installed), host=HostConfig(enabled=tuple(enabled), config=files),
                 overrides=texts, behaviour=behaviour)


def worlds(max_plugins: int = 7, config: bool = False) -> st.SearchStrategy[World]:
    """Valid worlds: a dependency DAG, shuffled installation and enabled orders, some built-ins,
    hooks, setup failures and raising hooks; with ``config``, also defaults, file config and
    command-line overrides."""
    specs = st.lists(PLUGIN_SPECS, min_size=1, max_size=max_plugins)
    if not config:
        return specs.map(_world)
    return specs.flatmap(lambda s: st.builds(_world, st.just(s), st.lists(st.tuples(TREES, TREES), min_size=len(s),
                                                                      max_size=len(s)),
                                             st.lists(OVERRIDES, max_size=3)))


def _override(module_name: str, keys: list[str], value: Any) -> str:
    return f"{module_name}.{'.'.join(keys)}={json.dumps(value)}"
