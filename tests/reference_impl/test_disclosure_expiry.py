"""What no disclosure scenario can express: idle expiry counting from any activity, and a default of LoadCall.

A scenario does not know the declared ``expiry_seconds`` (it takes 1 second as short and
10,000,000 as long), so it cannot place two idle gaps that are each shorter than the expiry but
together longer: here the expiry is known (10 seconds) and they can.
"""

from __future__ import annotations

import pytest

from reference_impl.disclosure import start, step
from reference_impl.disclosure_answers import ToolsObservation
from reference_impl.disclosure_commands import DisclosureStart, EndRequest, Idle, LoadCall, ModelStep, Request, Tool
from reference_impl.disclosure_options import Expiry, Options, Scope

CATALOGUE = DisclosureStart(tools=(Tool(name="weather"), Tool(name="clock", always_visible=True)))


@pytest.mark.parametrize("scope", [Scope.THREAD, Scope.INSTANCE])
def test_a_request_without_a_model_step_counts_as_activity(scope: Scope):
    state = start(Options(state_scope=scope, expiry=Expiry.IDLE, expiry_seconds=10), CATALOGUE)
    for event in (Request(), ModelStep(calls=(LoadCall(names=("weather",)),)), EndRequest(),
                  Idle(seconds=8), Request(), EndRequest(), Idle(seconds=8)):
        state, _ = step(state, event)  # 16 seconds since the load, 8 since the last request
    state, shown = step(state, Request())
    assert shown == ToolsObservation(tools=("@load", "@unload", "clock", "weather"))


@pytest.mark.parametrize("scope", [Scope.THREAD, Scope.INSTANCE])
@pytest.mark.parametrize(("idle", "kept"), [(11, ()), (10, ("weather",))])
def test_loads_go_after_a_gap_longer_than_the_expiry_not_one_as_long(scope: Scope, idle: float, kept: tuple[str, ...]):
    state = start(Options(state_scope=scope, expiry=Expiry.IDLE, expiry_seconds=10), CATALOGUE)
    for event in (Request(), ModelStep(calls=(LoadCall(names=("weather",)),)), EndRequest(), Idle(seconds=idle)):
        state, _ = step(state, event)
    state, shown = step(state, Request())
    assert shown == ToolsObservation(tools=("@load", "@unload", "clock", *kept))  # DISC-PERSIST-5: idle *longer* than


def test_a_load_call_asks_for_one_name_unless_told_it_was_a_list():
    assert LoadCall(names=("weather",)).to_json() == {"load": "weather"}
    assert LoadCall(names=("weather",), several=True, unload=True).to_json() == {"unload": ["weather"]}
