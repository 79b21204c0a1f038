"""The simpler variants of a host case, biggest simplifications first, for the greedy minimiser.

:func:`conformance.fuzz.minimise.minimise` walks them: a command fewer (never the first load,
nor the last command, which holds the disagreement), a plugin fewer, a dependency, hook, default,
schema or file-layer value fewer, a plugin no longer built in, left out or disabled, no ghost in
``enabled``; for each load, a variable, an override, a failing setup or a raising hook fewer; a
hook dispatched outside any conversation.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from conformance.fuzz.host_case import HostCase
from conformance.fuzz.host_generate import UNKNOWN
from reference_impl.host_commands import Behaviour, Dispatch, HostCommand, Load
from reference_impl.model import HostConfig, Manifest


def _with(case: HostCase, index: int, event: HostCommand) -> HostCase:
    return replace(case, events=case.events[:index] + (event,) + case.events[index + 1:])


def _fewer_events(case: HostCase) -> Iterator[HostCase]:
    for index in range(1, len(case.events) - 1):  # the first load stays; the last command holds the disagreement
        yield replace(case, events=case.events[:index] + case.events[index + 1:])


def _without_plugin(case: HostCase, name: str) -> HostCase:
    host = case.host
    host = replace(host, enabled=tuple(n for n in host.enabled if n != name), disabled=host.disabled - {name},
                   config={m: v for m, v in host.config.items() if m != name})
    plugins = tuple(m for m in case.plugins if m.module_name != name)
    shrunk = case.with_world(plugins, host)
    events = tuple(replace(e, behaviour=Behaviour(setup_fails=e.behaviour.setup_fails - {name},
                                                  hook_raises={m: h for m, h in e.behaviour.hook_raises.items()
                                                               if m != name}))
                   if isinstance(e, Load) else e for e in shrunk.events)
    return replace(shrunk, events=events)


def _fewer_plugins(case: HostCase) -> Iterator[HostCase]:
    for plugin in reversed(case.plugins):
        yield _without_plugin(case, plugin.module_name)


def _plainer_manifests(plugin: Manifest) -> Iterator[Manifest]:
    for index in range(len(plugin.dependencies)):
        yield replace(plugin, dependencies=plugin.dependencies[:index] + plugin.dependencies[index + 1:])
    if plugin.hooks:
        yield replace(plugin, hooks=())
    if plugin.config_schema is not None:
        yield replace(plugin, config_schema=None)
    if plugin.config_defaults:
        yield replace(plugin, config_defaults={})


def _plainer_plugins(case: HostCase) -> Iterator[HostCase]:
    for index, plugin in enumerate(case.plugins):
        for simpler in _plainer_manifests(plugin):
            yield case.with_world(case.plugins[:index] + (simpler,) + case.plugins[index + 1:], case.host)
        if plugin.builtin:
            plugins = case.plugins[:index] + (replace(plugin, builtin=False),) + case.plugins[index + 1:]
            yield case.with_world(plugins, replace(case.host, enabled=(*case.host.enabled, plugin.module_name)))


def _plainer_hosts(case: HostCase) -> Iterator[HostConfig]:
    host = case.host
    if UNKNOWN in host.enabled:
        yield replace(host, enabled=tuple(n for n in host.enabled if n != UNKNOWN))
    for name in sorted(host.disabled):
        yield replace(host, disabled=host.disabled - {name})
    for name in host.config:
        yield replace(host, config={m: v for m, v in host.config.items() if m != name})
    for plugin in case.plugins:
        if not plugin.builtin and plugin.module_name not in host.enabled:
            yield replace(host, enabled=(*host.enabled, plugin.module_name))


def _plainer_loads(load: Load) -> Iterator[Load]:
    for name in load.environment:
        yield replace(load, environment={n: v for n, v in load.environment.items() if n != name})
    for index in range(len(load.overrides)):
        yield replace(load, overrides=load.overrides[:index] + load.overrides[index + 1:])
    behaviour = load.behaviour
    for name in sorted(behaviour.setup_fails):
        yield replace(load, behaviour=replace(behaviour, setup_fails=behaviour.setup_fails - {name}))
    for name in sorted(behaviour.hook_raises):
        raises = {m: h for m, h in behaviour.hook_raises.items() if m != name}
        yield replace(load, behaviour=replace(behaviour, hook_raises=raises))


def _plainer_events(case: HostCase) -> Iterator[HostCase]:
    for index, event in enumerate(case.events):
        if isinstance(event, Load):
            for simpler in _plainer_loads(event):
                yield _with(case, index, simpler)
        elif isinstance(event, Dispatch) and event.conversation:
            yield _with(case, index, replace(event, conversation=""))


def candidates(case: HostCase) -> Iterator[HostCase]:
    """Simpler variants of ``case``, the biggest simplifications first."""
    yield from _fewer_events(case)
    yield from _fewer_plugins(case)
    yield from _plainer_plugins(case)
    for host in _plainer_hosts(case):
        yield case.with_world(case.plugins, host)
    yield from _plainer_events(case)
