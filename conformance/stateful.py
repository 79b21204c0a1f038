"""Check your scheduler against the reference from your own pytest, with a Hypothesis state machine.

The public name for :mod:`conformance.fuzz.stateful`; five lines in a test module::

    from hypothesis import settings
    from conformance.stateful import scheduler_state_machine
    from myframework.pas_adapter import create

    TestAgainstReference = scheduler_state_machine(create, settings=settings(max_examples=200)).TestCase
"""

from conformance.fuzz.stateful import SchedulerAgainstReference, scheduler_state_machine

__all__ = ["SchedulerAgainstReference", "scheduler_state_machine"]
