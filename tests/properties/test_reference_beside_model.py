"""The reference scheduler beside an independent model, over random event sequences.

Every observation must equal the model's, and the invariants of spec 1.0 must hold after
every step: counters in 0..20 (ACT-COUNT-8), protected plugins never sleeping (ACT-ELIG-1),
no injection while sleeping (ACT-STATE-4), disabled plugins never shown (ACT-STATE-5),
save then restore is the identity (ACT-COUNT-7).
"""

from __future__ import annotations

import re

from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from support.pas_activation_model import ActivationModel
from support.pas_worlds import (
    CALLABLE_NAMES,
    CONVERSATION,
    CONVERSATIONS,
    LIKELY_ROUNDS,
    ROUNDS,
    STRATEGY_VALUES,
    worlds,
)

from reference_impl.engine import Engine
from reference_impl.events import Activate, Disable, Enable, Extend, Restart, SetScheduler, SetStrategy, StartRun
from reference_impl.model import PluginState
from reference_impl.scheduler import SchedulerState
from reference_impl.semantics import load_semantics

SEMANTICS = load_semantics()

_CONTEXT = re.compile(r'^<plugin_runtime_context name="[^"]*" module_name="(\w+)">', re.MULTILINE)


class ReferenceBesideModel(RuleBasedStateMachine):
    """Drives the reference Engine and ActivationModel with the same events."""

    engine: Engine | None = None

    @initialize(world=worlds())
    def install(self, world):
        installed, host = world
        self.manifests = {m.module_name: m for m in installed}
        self.engine = Engine()
        self.engine.start(installed, host)
        self.model = ActivationModel(installed, host)

    def _apply(self, event) -> dict:
        observed = self.engine.apply(event).to_json()
        observed.pop("text", None)
        return observed

    @rule(conversation=CONVERSATION)
    def run(self, conversation):
        adapter = CONVERSATIONS[conversation]
        observation = self.engine.apply(StartRun(conversation=conversation, adapter=adapter))
        expected = self.model.run(conversation, adapter)
        assert {"plugins": [v.to_json() for v in observation.plugins]} == expected
        self._check_views(observation)
        event(f"run shows active: {any(v.state is PluginState.ACTIVE for v in observation.plugins)}")

    def _check_views(self, observation) -> None:
        disabled = self.engine.state.host.disabled
        for view in observation.plugins:
            assert view.module_name not in disabled, "ACT-STATE-5: a disabled plugin is shown"
            if view.state is PluginState.SLEEPING:
                assert self.manifests[view.module_name].allow_sleep is not False, "ACT-ELIG-1: a protected plugin sleeps"
                assert not view.injection_called, "ACT-STATE-4: injection called while sleeping"
        for view in observation.plugins:
            assert f'module_name="{view.module_name}" call_priority="auto" state="{view.state.value}"' in observation.text, "TXT-BLOCK-1"
        assert observation.text.count("<capability_brief>") == sum(v.brief_shown for v in observation.plugins)
        contexts = _CONTEXT.findall(observation.text)
        assert contexts == [v.module_name for v in observation.plugins if v.injection_called], "TXT-BLOCK-6"

    @rule(conversation=CONVERSATION)
    def another_run(self, conversation):
        """Runs are the commonest event in real use."""
        self.run(conversation)

    @rule(activate=st.booleans(), conversation=CONVERSATION, data=st.data(), rounds=LIKELY_ROUNDS)
    def call_installed(self, activate, conversation, data, rounds):
        """Calls naming an installed plugin, mostly with a sensible count."""
        self.call(activate, conversation, data.draw(st.sampled_from(sorted(self.manifests))), rounds)

    @rule(activate=st.booleans(), conversation=CONVERSATION, module=st.sampled_from(CALLABLE_NAMES), rounds=ROUNDS)
    def call(self, activate, conversation, module, rounds):
        adapter = CONVERSATIONS[conversation]
        kind, method = (Activate, "activate") if activate else (Extend, "extend")
        observed = self._apply(kind(conversation=conversation, module_name=module, rounds=rounds, adapter=adapter))
        assert observed == self.model.call(method, conversation, module, rounds, adapter)
        event(f"{method}: {observed['outcome']}")

    @rule(module=st.sampled_from(CALLABLE_NAMES), value=STRATEGY_VALUES)
    def set_strategy(self, module, value):
        observed = self._apply(SetStrategy(module_name=module, strategy=value))
        assert observed["outcome"] == self.model.admin("set-strategy", module, value)
        assert (observed["outcome"] == "rejected") == bool(observed.get("reason"))

    @rule(module=st.sampled_from(CALLABLE_NAMES), enable=st.booleans())
    def toggle(self, module, enable):
        observed = self._apply(Enable(module_name=module) if enable else Disable(module_name=module))
        assert observed["outcome"] == self.model.admin("enable" if enable else "disable", module)

    @rule(on=st.booleans())
    def set_scheduler(self, on):
        assert self._apply(SetScheduler(enabled=on)) == {"outcome": self.model.admin("set-scheduler", value=on)}

    @rule()
    def restart(self):
        assert self._apply(Restart()) == {"outcome": "applied"}

    @precondition(lambda self: self.engine is not None)
    @invariant()
    def counters_agree_and_stay_in_bounds(self):
        counters = {c: dict(v) for c, v in self.engine.state.counters.items()}
        assert all(1 <= r <= 20 for v in counters.values() for r in v.values()), "ACT-COUNT-8"
        assert counters == self.model.stored()

    @precondition(lambda self: self.engine is not None)
    @invariant()
    def save_then_restore_is_the_identity(self):
        state = self.engine.state
        assert SchedulerState.from_json(state.to_json(), SEMANTICS) == state


# At least 150 sequences of up to 40 events; a profile asking for more (thorough) gets more.
ReferenceBesideModel.TestCase.settings = settings(max_examples=max(150, settings.default.max_examples),
                                                  stateful_step_count=40)
TestReferenceBesideModel = ReferenceBesideModel.TestCase
