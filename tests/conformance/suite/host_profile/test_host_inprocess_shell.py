"""Host commands in-process: the reference Engine delegates them, the adapter accepts host-only
implementations, and the runner begins a host scenario with its load instead of start()."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.adapters.implementation import Host, ImplementationFailed, Scheduler
from conformance.adapters.inprocess import InProcessAdapter, observation_json
from conformance.suite.results import Outcome
from conformance.suite.runner import run_scenario
from conformance.suite.scenario import HostExpectation, Scenario, Step
from reference_impl.engine import Engine
from reference_impl.events import StartRun
from reference_impl.host import HostEngine
from reference_impl.host_commands import Load, Start, Stop
from reference_impl.host_observations import HostObservation
from reference_impl.model import HostConfig, ImplementationInfo, Manifest

CORE = Manifest.from_json({"name": "Core", "module_name": "core", "version": "1.0.0", "description": "C.",
                           "builtin": True})
LOAD = Load(plugins=(CORE,), host=HostConfig())


class CountingHost:
    """A host-only implementation that counts what it is asked and answers from the reference."""

    info = ImplementationInfo(name="counting", version="1", language="python", profiles=("host",))

    def __init__(self, fail_on: str = "") -> None:
        self.reference = HostEngine()
        self.commands: list[str] = []
        self.fail_on = fail_on

    def apply(self, command: Any) -> HostObservation:
        """Record the command; raise when told to."""
        self.commands.append(command.cmd)
        if command.cmd == self.fail_on:
            raise RuntimeError("the stub plugin exploded")
        return self.reference.apply(command)


class StartCountingEngine(Engine):
    """The reference engine, counting its starts."""

    starts = 0

    def start(self, manifests: Any, host: HostConfig) -> None:
        """Count, then start."""
        type(self).starts += 1
        super().start(manifests, host)


def host_scenario(*steps: Step) -> Scenario:
    return Scenario(id="h", title="h", covers=("HOST-LIFE-2",), profiles=("host",), steps=steps)


def test_the_engine_applies_host_commands_and_start_forgets_the_host_state() -> None:
    engine = Engine()
    engine.apply(LOAD)
    assert [e.module_name for e in engine.apply(Start()).events] == ["core", "core"]
    engine.start([], HostConfig())
    assert engine.apply(Stop()).events == ()


def test_a_host_load_forgets_the_previous_host_scenario() -> None:
    engine = HostEngine()
    engine.apply(LOAD)
    engine.apply(Start())
    engine.apply(LOAD)
    assert [e.kind.value for e in engine.apply(Stop()).events] == []


def test_a_host_only_object_is_a_host_but_not_a_scheduler_and_the_engine_is_both() -> None:
    assert isinstance(CountingHost(), Host) and not isinstance(CountingHost(), Scheduler)
    assert isinstance(Engine(), Host) and isinstance(Engine(), Scheduler)


def test_the_in_process_adapter_drives_a_host_only_implementation_and_refuses_it_a_start() -> None:
    adapter = InProcessAdapter(CountingHost, name="CountingHost")
    assert adapter.hello().profiles == ("host",)
    assert adapter.send(LOAD)["load_order"] == ["core"]
    with pytest.raises(ImplementationFailed, match="host without start"):
        adapter.start([], HostConfig())


def test_host_observations_are_converted_with_to_json() -> None:
    observation = HostEngine().apply(LOAD)
    assert observation_json(observation) == observation.to_json()


def test_the_runner_sends_no_start_for_a_host_scenario_but_does_for_an_activation_one() -> None:
    StartCountingEngine.starts = 0
    adapter = InProcessAdapter(StartCountingEngine)
    host = host_scenario(Step(index=0, action="host_load", event=LOAD),
                         Step(index=1, action="host_start", event=Start(), host=HostExpectation(events=(
                             {"event": "set_up", "module_name": "core"}, {"event": "started"}))))
    activation = Scenario(id="a", title="a", covers=("ACT-COUNT-1",), steps=(
        Step(index=0, action="run", event=StartRun(conversation="main")),))
    assert run_scenario(adapter, host, profiles=("activation", "host")).outcome is Outcome.PASSED
    assert StartCountingEngine.starts == 0
    assert run_scenario(adapter, activation, profiles=("activation", "host")).outcome is Outcome.PASSED
    assert StartCountingEngine.starts == 1


def test_a_host_step_failure_reports_the_command_sent_and_the_requirement_it_breaks() -> None:
    scenario = host_scenario(Step(index=0, action="host_load", event=LOAD),
                             Step(index=1, action="host_stop", event=Stop(), covers=("HOST-LIFE-2",),
                                  host=HostExpectation(events=({"event": "stopped"},))))
    result = run_scenario(InProcessAdapter(CountingHost), scenario, profiles=("host",))
    assert result.outcome is Outcome.FAILED
    assert result.failure.event == {"cmd": "host-stop"} and result.failure.breaks == ("HOST-LIFE-2",)


def test_a_host_that_raises_is_errored_with_the_command_it_was_handling() -> None:
    scenario = host_scenario(Step(index=0, action="host_load", event=LOAD),
                             Step(index=1, action="host_start", event=Start()))
    result = run_scenario(InProcessAdapter(lambda: CountingHost(fail_on="host-start")), scenario, profiles=("host",))
    assert result.outcome is Outcome.ERRORED
    assert result.error.reason == "apply(host-start) raised RuntimeError" and result.error.event == {"cmd": "host-start"}


def test_a_host_scenario_is_skipped_for_an_implementation_not_claiming_host() -> None:
    scenario = host_scenario(Step(index=0, action="host_load", event=LOAD))
    result = run_scenario(InProcessAdapter(CountingHost), scenario, profiles=("activation",))
    assert result.outcome is Outcome.SKIPPED and "host" in result.reason
