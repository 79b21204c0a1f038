"""scheduler_state_machine: the documented five-line example passes on the reference and fails on a broken fake."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import run_state_machine_as_test
from support.fuzz_support import REFERENCE_OVER_STDIO, load_fake

from conformance import scheduler_state_machine
from reference_impl.engine import create

_QUICK = settings(max_examples=12, stateful_step_count=12, database=None, derandomize=True, deadline=None,
                  suppress_health_check=list(HealthCheck))

# The documented example, with settings small enough for this suite:
TestTheReferenceAgreesWithItselfInTheStateMachine = scheduler_state_machine(create, settings=_QUICK).TestCase


def test_the_state_machine_fails_on_a_scheduler_that_calls_injection_for_sleeping_plugins():
    machine = scheduler_state_machine(load_fake("broken_injects_sleeping").create)
    with pytest.raises(AssertionError, match=r"injection_called \(\w+\): expected False, got True"):
        run_state_machine_as_test(machine, settings=settings(_QUICK, max_examples=80, stateful_step_count=15,
                                                             phases=[Phase.generate]))


def test_the_state_machine_reports_an_implementation_that_raises_as_errored():
    machine = scheduler_state_machine(load_fake("broken_raises").create)
    with pytest.raises(AssertionError, match="the implementation errored"):
        run_state_machine_as_test(machine, settings=settings(_QUICK, max_examples=80, phases=[Phase.generate]))


@pytest.mark.slow
def test_the_state_machine_drives_a_stdio_implementation_given_as_an_impl_string():
    machine = scheduler_state_machine(REFERENCE_OVER_STDIO)
    run_state_machine_as_test(machine, settings=settings(_QUICK, max_examples=4))
    assert machine.shared.adapter is not None and machine.shared.adapter.pid is not None
    machine.shared.adapter.close()
