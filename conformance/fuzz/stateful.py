"""A Hypothesis state machine that checks an implementation against the reference, for your own pytest.

Each rule is one event (a run, an ``activate_plugin`` or ``extend_plugin_activation`` call,
a strategy change, enable, disable, the scheduler switch, a restart); the machine applies it
to your implementation and to the reference and fails on the first difference in the
structured view (and in the text, when your implementation claims the text profile),
exactly as ``pas fuzz`` and ``pas run`` compare. Hypothesis then shrinks the failing run
of rules and prints it. Five lines in a test module of your own::

    from hypothesis import settings
    from conformance import scheduler_state_machine
    from myframework.pas_adapter import create

    TestAgainstReference = scheduler_state_machine(create, settings=settings(max_examples=200)).TestCase

``implementation`` is a factory returning a Scheduler (as for ``--impl python:...``) or
any ``--impl`` string, e.g. ``"cmd:./my-scheduler --pas"`` for an implementation in
another language (one process is reused for the whole test run).
"""

from __future__ import annotations

import atexit
from collections.abc import Callable, Collection
from typing import Any

from hypothesis import settings as Settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule

from conformance.adapters.implementation import Adapter, ImplementationFailed
from conformance.fuzz.case import CONVERSATIONS, MAIN, describe
from conformance.fuzz.compare import differences
from conformance.fuzz.strategies import conversations, rounds_arguments, strategy_values, targets, worlds
from conformance.suite.runner import effective_profiles
from reference_impl.engine import Engine
from reference_impl.events import Activate, Disable, Enable, Event, Extend, Restart, SetScheduler, SetStrategy, StartRun
from reference_impl.model import HostConfig, Manifest, Profile


def _adapter(implementation: Callable[[], Any] | str) -> Adapter:
    if isinstance(implementation, str):
        from conformance.adapters.select import adapter_for

        return adapter_for(implementation)
    from conformance.adapters.inprocess import InProcessAdapter

    return InProcessAdapter(implementation, name=getattr(implementation, "__qualname__", "factory"))


class _Shared:
    """The adapter and the claimed profiles, shared by every example of one machine class."""

    def __init__(self, implementation: Callable[[], Any] | str, profiles: Collection[str] | None) -> None:
        self.implementation, self.profiles = implementation, profiles
        self.adapter: Adapter | None = None
        self.text: bool | None = None

    def ready(self) -> tuple[Adapter, bool]:
        """The adapter after a successful hello, and whether text is compared."""
        if self.adapter is None:
            self.adapter = _adapter(self.implementation)
            atexit.register(self.adapter.close)
        if self.text is None:
            try:
                info = self.adapter.hello()
            except ImplementationFailed as error:
                self.adapter.reset()
                raise AssertionError(f"the implementation errored on hello: {error}") from None
            self.text = Profile.TEXT in effective_profiles(info, self.profiles)
        return self.adapter, self.text


class SchedulerAgainstReference(RuleBasedStateMachine):
    """Base machine: subclasses made by :func:`scheduler_state_machine` set ``shared``."""

    shared: _Shared

    def __init__(self) -> None:
        super().__init__()
        self.reference = Engine()
        self.names: tuple[str, ...] = ()
        self.index = 0

    @initialize(world=worlds())
    def install(self, world: tuple[tuple[Manifest, ...], HostConfig]) -> None:
        """Start both sides with the same plugins and host config."""
        plugins, host = world
        adapter, text = self.shared.ready()
        self.reference = Engine(text=text)
        self.reference.start(plugins, host)
        self.names = tuple(m.module_name for m in plugins)
        try:
            adapter.start(plugins, host)
        except ImplementationFailed as error:
            adapter.reset()
            raise AssertionError(f"the implementation errored on start: {error}") from None

    def _target(self, data: st.DataObject, *, admin: bool = False) -> str:
        return data.draw(targets(self.names, admin=admin), label="module_name")

    def _step(self, event: Event) -> None:
        adapter, text = self.shared.ready()
        expected = self.reference.apply(event).to_json()
        where = f"step {self.index} ({describe(event)})"
        try:
            actual = adapter.send(event)
            mismatches = differences(self.index, event, expected, actual, text=text)
        except ImplementationFailed as error:
            adapter.reset()
            raise AssertionError(f"{where}: the implementation errored: {error}") from None
        self.index += 1
        if mismatches:
            found = "\n".join(f"  {m}" for m in mismatches)
            raise AssertionError(f"{where}: the implementation differs from the reference:\n{found}")

    @rule(conversation=conversations)
    def run(self, conversation: str) -> None:
        """A run starts."""
        self._step(StartRun(conversation=conversation, adapter=CONVERSATIONS[conversation]))

    @rule()
    def run_in_main(self) -> None:
        """A run starts in the main conversation (a second rule: runs are what show every bug)."""
        self._step(StartRun(conversation=MAIN))

    @rule(data=st.data(), conversation=conversations, rounds=rounds_arguments)
    def activate(self, data: st.DataObject, conversation: str, rounds: Any) -> None:
        """The model calls activate_plugin."""
        self._step(Activate(conversation=conversation, module_name=self._target(data), rounds=rounds,
                            adapter=CONVERSATIONS[conversation]))

    @rule(data=st.data(), conversation=conversations, rounds=rounds_arguments)
    def extend(self, data: st.DataObject, conversation: str, rounds: Any) -> None:
        """The model calls extend_plugin_activation."""
        self._step(Extend(conversation=conversation, module_name=self._target(data), rounds=rounds,
                          adapter=CONVERSATIONS[conversation]))

    @rule(data=st.data(), strategy=strategy_values)
    def set_strategy(self, data: st.DataObject, strategy: str) -> None:
        """An admin sets a strategy (valid, unknown or not a string at all)."""
        self._step(SetStrategy(module_name=self._target(data, admin=True), strategy=strategy))

    @rule(data=st.data())
    def enable(self, data: st.DataObject) -> None:
        """An admin enables a plugin (now and then an unknown one)."""
        self._step(Enable(module_name=self._target(data, admin=True)))

    @rule(data=st.data())
    def disable(self, data: st.DataObject) -> None:
        """An admin disables a plugin (now and then an unknown one)."""
        self._step(Disable(module_name=self._target(data, admin=True)))

    @rule(enabled=st.booleans())
    def set_scheduler(self, enabled: bool) -> None:
        """An admin switches the scheduler off or on."""
        self._step(SetScheduler(enabled=enabled))

    @rule()
    def restart(self) -> None:
        """The host restarts."""
        self._step(Restart())


def scheduler_state_machine(implementation: Callable[[], Any] | str, *, settings: Settings | None = None,
                            profiles: Collection[str] | None = None) -> type[SchedulerAgainstReference]:
    """A state machine class checking ``implementation`` against the reference; use its ``TestCase``.

    ``settings`` become the TestCase's Hypothesis settings; ``profiles`` narrows what is
    compared (default: every profile the implementation claims). Plugins are drawn from the
    tables ``pas fuzz`` uses (:mod:`conformance.fuzz.plugin_shapes`); the machine's steps are
    activation events. Raises BadImplementation (from the adapter selection) only for an
    ``--impl`` string that names nothing usable, on first use.
    """
    machine = type("SchedulerAgainstReference", (SchedulerAgainstReference,),
                   {"shared": _Shared(implementation, profiles), "__doc__": SchedulerAgainstReference.__doc__})
    if settings is not None:
        machine.TestCase.settings = settings  # type: ignore[attr-defined]  # set by RuleBasedStateMachine's metaclass
    return machine
