"""One host fuzz case: installed plugins, a host config, and the host commands sent, a load first.

Like :class:`~conformance.fuzz.case.Case`, plain data: the generator
(:mod:`conformance.fuzz.host_generate`) builds cases, the minimiser derives simpler ones
(:mod:`conformance.fuzz.host_minimise`) and the emitter writes one as a host scenario
(:mod:`conformance.fuzz.host_emit`). Every load of a case installs the case's plugins under its
host config (a scenario's ``host_load`` can change only the environment, the overrides and the
behaviour); the first event is one, and is the scenario's own load.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from conformance.documents.step_form import StepContext, Unwritable
from conformance.documents.step_table import write_steps
from reference_impl.host_commands import HostCommand, Load, command_to_json
from reference_impl.model import HostConfig, Manifest


@dataclass(frozen=True, slots=True, kw_only=True)
class HostCase:
    """The plugins and host config every load of the case installs, and the commands, ``events[0]`` a load."""

    plugins: tuple[Manifest, ...]
    host: HostConfig
    events: tuple[HostCommand, ...]

    @property
    def load(self) -> Load:
        """The scenario's own load: the first event (its environment, overrides and behaviour are the scenario's)."""
        first = self.events[0]
        assert isinstance(first, Load)  # every case begins with a load: the generator and the minimiser keep it so
        return first

    def to_json(self) -> dict[str, Any]:
        """A JSON form (for hashing and debugging; scenario files are written by the emitter)."""
        return {"plugins": [m.to_json() for m in self.plugins], "host": self.host.to_json(),
                "events": [command_to_json(e) for e in self.events]}

    @property
    def digest(self) -> str:
        """Ten hex digits identifying the case's content (the emitted scenario id uses them)."""
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        return hashlib.sha256(text.encode()).hexdigest()[:10]

    def written_steps(self) -> tuple[tuple[str, Any], ...] | None:
        """Each command as a scenario step ``(key, value)``; None when a load installs other plugins or config."""
        if not self.events or not isinstance(self.events[0], Load):
            return None
        try:
            return write_steps(self.events, StepContext(load=self.load))
        except Unwritable:
            return None

    def truncated(self, last: int) -> HostCase:
        """The case up to and including command ``last`` (the first load always stays)."""
        return replace(self, events=self.events[: max(last, 0) + 1])

    def with_world(self, plugins: tuple[Manifest, ...], host: HostConfig) -> HostCase:
        """The case with every load installing ``plugins`` under ``host`` instead."""
        events = tuple(replace(e, plugins=plugins, host=host) if isinstance(e, Load) else e for e in self.events)
        return HostCase(plugins=plugins, host=host, events=events)


def joined(cases: Iterable[HostCase]) -> HostCase:
    """The cases one after the other as one case (each begins with its load); raises Unwritable unless they
    all install the same plugins under the same host config."""
    cases = list(cases)
    first = cases[0]
    if any((c.plugins, c.host) != (first.plugins, first.host) for c in cases):
        raise Unwritable("the cases install different plugins or host configs; a scenario has one of each")
    return replace(first, events=tuple(e for c in cases for e in c.events))
