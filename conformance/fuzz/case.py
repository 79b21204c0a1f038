"""One fuzz case: installed plugins, a host config and the events sent to both sides.

A case is plain data, independent of Hypothesis: :mod:`conformance.fuzz.generate` builds cases
(from ``random.Random`` in ``pas fuzz``, from Hypothesis draws in the state machine), the minimiser
derives simpler ones, and the emitter writes one as a scenario file.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from conformance.documents.step_form import StepContext, Unwritable
from conformance.documents.step_table import DEFAULT_CONVERSATION, key_of, row_of, write_steps
from reference_impl.disclosure_commands import DisclosureEvent
from reference_impl.events import Activate, Disable, Enable, Event, Extend, SetStrategy, StartRun
from reference_impl.model import HostConfig, Manifest

MAIN: Final = DEFAULT_CONVERSATION
#: The conversations a case may use, each with the chat adapter it starts on (a run may move it to another).
CONVERSATIONS: Final[Mapping[str, str | None]] = {MAIN: None, "side": None, "qq": "onebot_v11", "dc": "discord"}
_DECLARED: Final = {c: a for c, a in CONVERSATIONS.items() if a is not None}


def action_of(event: Event | DisclosureEvent) -> str:
    """The scenario action key for ``event`` (``run``, ``activate``, ``set_strategy`` ...)."""
    return key_of(event)


def in_conversation(event: Event, conversation: str) -> Event:
    """``event`` moved to ``conversation`` (with that conversation's adapter); others unchanged."""
    if isinstance(event, (StartRun, Activate, Extend)):
        return replace(event, conversation=conversation, adapter=CONVERSATIONS.get(conversation))
    return event


def describe(event: Event | DisclosureEvent | None) -> str:
    """A short human label for an event, e.g. ``activate alpha rounds=1 in side`` (``start`` for none).

    The step table's label (:meth:`~conformance.documents.step_form.StepRow.label`), with each
    conversation's own adapter as the one a step need not name.
    """
    if event is None:
        return "start"
    return row_of(event).label(event, _DECLARED)


@dataclass(frozen=True, slots=True, kw_only=True)
class Case:
    """What one example sends: plugins and host config to ``start``, then ``events`` in order."""

    plugins: tuple[Manifest, ...]
    host: HostConfig
    events: tuple[Event, ...]

    def to_json(self) -> dict[str, Any]:
        """A JSON form (for hashing and debugging; scenario files are written by ``emit``)."""
        return {"plugins": [m.to_json() for m in self.plugins], "host": self.host.to_json(),
                "events": [e.to_json() for e in self.events]}

    @property
    def digest(self) -> str:
        """Ten hex digits identifying the case's content (the emitted scenario id uses them)."""
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        return hashlib.sha256(text.encode()).hexdigest()[:10]

    @property
    def conversations(self) -> dict[str, str]:
        """The conversations the events use that have an adapter, with it (scenario ``conversations``)."""
        used = {getattr(e, "conversation", MAIN) for e in self.events}
        return {c: a for c, a in CONVERSATIONS.items() if c in used and a is not None}

    def written_steps(self) -> tuple[tuple[str, Any], ...] | None:
        """Each event as a scenario step ``(key, value)``, or None when a scenario file cannot say the case.

        Written through the step table in order, from the declared adapters of
        :attr:`conversations`: a run that names an adapter moves its conversation there for the
        steps after it (ACT-STATE-7). None when a conversation would go back to having no
        adapter, which a scenario file cannot say.
        """
        try:
            return write_steps(self.events, StepContext(adapters=self.conversations))
        except Unwritable:
            return None

    def truncated(self, last: int) -> Case:
        """The case up to and including event ``last``."""
        return replace(self, events=self.events[: last + 1])

    def renamed(self, old: str, new: str, manifest: Manifest) -> Case:
        """The case with plugin ``old`` replaced by ``manifest`` (called ``new``) everywhere it is named."""

        def swap(name: str) -> str:
            return new if name == old else name

        host = replace(self.host, enabled=tuple(map(swap, self.host.enabled)),
                       disabled=frozenset(map(swap, self.host.disabled)),
                       strategies={swap(m): s for m, s in self.host.strategies.items()})
        named = (Activate, Extend, SetStrategy, Enable, Disable)
        events = tuple(replace(e, module_name=swap(e.module_name)) if isinstance(e, named) else e
                       for e in self.events)
        plugins = tuple(manifest if m.module_name == old else m for m in self.plugins)
        return replace(self, plugins=plugins, host=host, events=events)

    def without_plugin(self, module_name: str) -> Case:
        """The case without one plugin, and without its entries in the host config."""
        host = self.host
        host = replace(host, enabled=tuple(n for n in host.enabled if n != module_name),
                       disabled=host.disabled - {module_name},
                       strategies={m: s for m, s in host.strategies.items() if m != module_name})
        return replace(self, plugins=tuple(m for m in self.plugins if m.module_name != module_name), host=host)
