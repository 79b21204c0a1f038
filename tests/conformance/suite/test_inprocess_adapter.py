"""The in-process adapter: the Scheduler protocol, and every misbehaviour turned into ImplementationFailed."""

from __future__ import annotations

import inspect
from dataclasses import replace
from typing import Any, get_type_hints

import pytest
from support.runner_support import Scripted, own

from conformance.adapters.implementation import FailureKind, ImplementationFailed, InFlight, Scheduler
from conformance.adapters.inprocess import InProcessAdapter, observation_json, reference_adapter
from conformance.adapters.interface import UnusableImplementation
from conformance.adapters.select import BadImplementation, adapter_for
from reference_impl.engine import Engine
from reference_impl.events import AdminObservation, PluginView, RunObservation, StartRun
from reference_impl.model import AdminOutcome, HostConfig, PluginState

RUN = StartRun(conversation="main")


def test_the_reference_engine_is_a_scheduler():
    assert isinstance(Engine(), Scheduler)


def test_an_object_lacking_apply_is_not_a_scheduler():
    class NoApply:
        info = Engine.info

        def start(self, manifests: Any, host: Any) -> None: ...

    assert not isinstance(NoApply(), Scheduler)


@pytest.mark.parametrize("name", ["start", "apply"])
def test_the_engine_methods_have_the_protocol_signatures(name):
    # A static-ish check: parameter names and kinds match, so keyword calls work on both.
    protocol, engine = inspect.signature(getattr(Scheduler, name)), inspect.signature(getattr(Engine, name))
    assert [(p.name, p.kind) for p in protocol.parameters.values()] == [
        (p.name, p.kind) for p in engine.parameters.values()]
    assert get_type_hints(getattr(Scheduler, name))["return"] == get_type_hints(getattr(Engine, name))["return"]


def test_observations_are_converted_with_to_json_and_mappings_pass_through():
    run = RunObservation(plugins=(PluginView(module_name="a", state=PluginState.ALWAYS_AWAKE, rounds_left=None,
                                        hint=False, brief_shown=False, methods_shown=True, injection_called=False),))
    assert observation_json(run) == run.to_json()
    assert observation_json(AdminObservation(outcome=AdminOutcome.APPLIED)) == {"outcome": "applied"}
    assert observation_json({"outcome": "applied"}) == {"outcome": "applied"}


@pytest.mark.parametrize("garbage", ["text", None, 3, [1], {1: "non-string key"}, RunObservation])
def test_anything_else_from_apply_is_an_implementation_failure(garbage):
    with pytest.raises(ImplementationFailed, match="returned no observation") as caught:
        observation_json(garbage)
    assert caught.value.kind is FailureKind.BAD_ANSWER


def test_a_mapping_that_is_not_plain_json_is_an_implementation_failure():
    cyclic: dict[str, Any] = {"outcome": "applied"}
    cyclic["self"] = cyclic
    for mapping in (cyclic, {"outcome": object()}):
        with pytest.raises(ImplementationFailed, match="not JSON"):
            observation_json(mapping)


def test_an_observation_whose_to_json_breaks_is_an_implementation_failure():
    broken = RunObservation(plugins=("not a view",))
    with pytest.raises(ImplementationFailed, match="to_json"):
        observation_json(broken)


def test_every_exception_from_the_implementation_becomes_an_implementation_failure():
    def explode(event: Any) -> Any:
        raise ZeroDivisionError("division by zero")

    adapter = InProcessAdapter(lambda: Scripted(explode))
    adapter.start((), HostConfig())
    with pytest.raises(ImplementationFailed) as failure:
        adapter.send(RUN)
    assert failure.value.reason == "apply(run) raised ZeroDivisionError"
    assert failure.value.kind is FailureKind.RAISED and failure.value.in_flight == InFlight.one("run")
    assert "division by zero" in failure.value.detail and "test_inprocess_adapter.py" in failure.value.detail


def test_sys_exit_inside_the_implementation_does_not_end_the_runner():
    def leave(event: Any) -> Any:
        raise SystemExit(3)

    adapter = InProcessAdapter(lambda: Scripted(leave))
    with pytest.raises(ImplementationFailed, match="SystemExit"):
        adapter.send(RUN)


def test_a_start_that_raises_is_an_implementation_failure():
    class BadStart(Engine):
        def start(self, manifests: Any, host: Any) -> None:
            raise ValueError("cannot install")

    with pytest.raises(ImplementationFailed, match=r"start\(\) raised ValueError"):
        InProcessAdapter(BadStart).start((), HostConfig())


def test_a_factory_that_raises_the_first_time_makes_the_implementation_unusable():
    def fails() -> Any:
        raise ImportError("missing dependency")

    with pytest.raises(UnusableImplementation, match=r"fails\(\) raised ImportError") as caught:
        InProcessAdapter(fails).hello()
    assert caught.value.problems[0].source.path == __file__
    with pytest.raises(UnusableImplementation) as caught:
        InProcessAdapter(lambda: object()).hello()
    assert [p.message.split(" has no ")[1].split(";")[0] for p in caught.value.problems] == ["info", "apply", "start"]


def test_a_factory_that_raises_after_a_reset_is_an_implementation_failure_of_kind_raised():
    made: list[Engine] = []

    def once() -> Engine:
        if made:
            raise RuntimeError("out of licences")
        made.append(Engine())
        return made[0]

    adapter = InProcessAdapter(once)
    adapter.hello()
    adapter.reset()
    with pytest.raises(ImplementationFailed, match=r"once\(\) raised RuntimeError") as caught:
        adapter.start((), HostConfig())
    assert caught.value.kind is FailureKind.RAISED and str(caught.value.in_flight) == "'start'"


def test_info_may_be_a_mapping_but_not_garbage():
    scripted = Scripted()
    scripted.info = {"name": "x", "version": "1", "language": "rust", "profiles": ["activation"]}
    assert InProcessAdapter(lambda: scripted).hello().language == "rust"
    scripted.info = "I am a scheduler"
    with pytest.raises(ImplementationFailed, match="bad implementation info") as caught:
        InProcessAdapter(lambda: scripted).hello()
    assert caught.value.kind is FailureKind.BAD_ANSWER
    scripted.info = {"name": "x"}
    with pytest.raises(ImplementationFailed, match="bad implementation info"):
        InProcessAdapter(lambda: scripted).hello()


def test_reset_makes_a_fresh_implementation_for_the_next_call():
    made = []
    adapter = InProcessAdapter(lambda: made.append(Engine()) or made[-1])
    adapter.hello()
    adapter.hello()
    adapter.reset()
    adapter.hello()
    adapter.close()
    assert len(made) == 2


def test_the_reference_adapter_drives_the_engine():
    adapter = reference_adapter()
    scenario = own("extend-cap")
    assert adapter.hello().name == "pas-reference"
    adapter.start(scenario.plugins, scenario.host)
    assert adapter.send(scenario.steps[0].event)["outcome"] == "extended"


def test_adapter_for_builds_in_process_adapters_for_reference_and_python_forms():
    assert adapter_for("reference").hello() == Engine.info
    assert adapter_for("python:reference_impl.engine:create").hello() == Engine.info
    assert adapter_for("python:reference_impl.engine:Engine").hello() == Engine.info


def test_adapter_for_builds_a_stdio_adapter_for_the_cmd_form():
    stdio = pytest.importorskip("conformance.adapters.stdio")
    adapter = adapter_for("cmd:python -m conformance serve-reference --no-text", timeout=2.5, check_messages=True)
    assert isinstance(adapter, stdio.StdioAdapter)
    assert adapter.argv == ["python", "-m", "conformance", "serve-reference", "--no-text"]
    assert (adapter.timeout, adapter.check_messages) == (2.5, True)


def test_adapter_for_rejects_a_dotted_path_that_is_not_an_identifier():
    with pytest.raises(BadImplementation):
        adapter_for("python:reference_impl.engine:create()")


def test_a_dataclass_info_replacement_still_counts_as_info():
    class Renamed(Engine):
        info = replace(Engine.info, name="renamed")

    assert InProcessAdapter(Renamed).hello().name == "renamed"
