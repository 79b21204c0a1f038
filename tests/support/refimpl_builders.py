"""Small builders shared by the reference-implementation unit tests.

Manifests here are written for the tests, not taken from the conformance fixtures, so a
change to the suite's fixture file cannot silently change what these tests check.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from reference_impl.catalogue import Catalogue
from reference_impl.events import Event, Observation
from reference_impl.model import HostConfig, Manifest, Method, MethodKind
from reference_impl.scheduler import SchedulerState, step
from reference_impl.semantics import load_semantics

CONV = "main"
SEMANTICS = load_semantics()  # the bundled spec/semantics.yaml, loaded once by the tests (an edge)


def plugin(module_name: str, **fields: Any) -> Manifest:
    """A manifest with one tool method; any field may be replaced."""
    defaults: dict[str, Any] = {
        "name": module_name.replace("_", " ").title(),
        "module_name": module_name,
        "version": "1.0.0",
        "description": f"The {module_name} plugin.",
        "methods": (Method(name=f"use_{module_name}", kind=MethodKind.TOOL, description=f"Use {module_name}."),),
    }
    return Manifest(**{**defaults, **fields})


def sleeper(module_name: str, **fields: Any) -> Manifest:
    """A plugin that opts in to sleeping and has a brief (eligible under ``auto``)."""
    return plugin(module_name, allow_sleep=True, sleep_brief=f"Brief of {module_name}.", **fields)


def protected(module_name: str, **fields: Any) -> Manifest:
    """A plugin that never sleeps (``allow_sleep: false``)."""
    return plugin(module_name, allow_sleep=False, sleep_brief=f"Brief of {module_name}.", **fields)


class World:
    """A catalogue and a scheduler state, advanced one event at a time through ``step``."""

    def __init__(self, manifests: Iterable[Manifest], host: HostConfig | None = None) -> None:
        manifests = tuple(manifests)
        self.catalogue = Catalogue.of(manifests)
        if host is None:
            host = HostConfig(enabled=tuple(m.module_name for m in manifests if not m.builtin))
        self.state = SchedulerState(host=host)

    def apply(self, event: Event) -> Observation:
        """Apply ``event`` and keep the new state."""
        self.state, observation = step(self.catalogue, self.state, event, SEMANTICS)
        return observation

    def counters(self, conversation: str = CONV) -> dict[str, int]:
        """The stored counters of one conversation, as a plain dict."""
        return dict(self.state.counters_of(conversation))


def available(catalogue: Catalogue, host: HostConfig, adapter: str | None) -> list[Manifest]:
    """The plugins a conversation on ``adapter`` can see, in load order, plugin by plugin (ACT-STATE-5).

    An oracle written from the spec's words: loaded (built-ins first, then the enabled list),
    not disabled, and supporting the adapter (no ``support_adapter`` means every adapter).
    """
    loaded = [catalogue.manifests[name] for name in catalogue.load_order(host) if name not in host.disabled]
    return [m for m in loaded if adapter is None or not m.support_adapter or adapter in m.support_adapter]


def views_by_module(observation: Any) -> dict[str, Any]:
    """The plugin views of a run observation keyed by module_name."""
    return {view.module_name: view for view in observation.plugins}
