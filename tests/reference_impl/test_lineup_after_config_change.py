"""A run after a host-config change, by the rules and by the fast path, against a plugin-by-plugin oracle.

The fast path (reference_impl.fast) keeps, per catalogue, the plugins eligible under ``auto``
and each plugin's resting views; a new host config re-decides only the plugins it names a
strategy for. These tests hold the lineup of both the rules and the fast path against an
oracle written from the spec's words, for host configs the admin commands cannot produce
(strategies for plugins not installed, an explicit ``auto``).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from support.refimpl_builders import SEMANTICS, available, plugin, protected, sleeper

from reference_impl.catalogue import Catalogue
from reference_impl.eligibility import is_sleep_eligible
from reference_impl.events import RunObservation, StartRun
from reference_impl.fast import FastScheduler, sleep_eligible_names
from reference_impl.model import HostConfig, PluginState, Strategy
from reference_impl.scheduler import SchedulerState, scheduler_on, step

NAMES = ("alpha", "beta", "gamma", "delta", "plugin_activation")


def _oracle(catalogue: Catalogue, host: HostConfig, adapter: str | None) -> list[tuple[str, PluginState]]:
    """ACT-ORDER-1 plugin by plugin: always-awake first, then sleeping, each group by module_name."""
    awake, asleep = [], []
    for manifest in sorted(available(catalogue, host, adapter), key=lambda m: m.module_name):
        strategy = host.strategy_for(manifest.module_name)
        eligible = scheduler_on(host, SEMANTICS) and is_sleep_eligible(manifest, strategy, SEMANTICS)
        (asleep if eligible else awake).append(manifest.module_name)
    return [(m, PluginState.ALWAYS_AWAKE) for m in awake] + [(m, PluginState.SLEEPING) for m in asleep]


def _run(catalogue: Catalogue, host: HostConfig, adapter: str | None, fast: FastScheduler | None) -> RunObservation:
    state, event = SchedulerState(host=host), StartRun(conversation="c", adapter=adapter)
    _, observation = step(catalogue, state, event, SEMANTICS) if fast is None else fast.step(catalogue, state, event)
    assert isinstance(observation, RunObservation)
    return observation


@st.composite
def _catalogues(draw: st.DrawFn) -> Catalogue:
    chosen = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=5, unique=True))
    return Catalogue.of(
        plugin(
            name,
            builtin=draw(st.booleans()),
            allow_sleep=draw(st.sampled_from([None, True, False])),
            sleep_brief=draw(st.sampled_from(["", " \u3000\n", "Brief."])),
            support_adapter=draw(st.sampled_from([(), ("qq",), ("qq", "minecraft")])),
        )
        for name in chosen
    )


_HOSTS = st.builds(
    HostConfig,
    enabled=st.lists(st.sampled_from(NAMES + ("missing",))).map(tuple),
    disabled=st.frozensets(st.sampled_from(NAMES)),
    strategies=st.dictionaries(st.sampled_from(NAMES + ("missing",)), st.sampled_from(list(Strategy))),
    scheduler_enabled=st.booleans(),
)


@settings(max_examples=300, deadline=None)
@given(catalogue=_catalogues(), hosts=st.lists(_HOSTS, min_size=1, max_size=4),
       adapter=st.sampled_from([None, "qq", "minecraft", ""]))
def test_every_host_config_shows_what_the_plugin_by_plugin_rule_says_by_the_rules_and_the_fast_path(
        catalogue, hosts, adapter):
    fast = FastScheduler(SEMANTICS)
    for host in hosts:
        expected = _oracle(catalogue, host, adapter)
        for observation in (_run(catalogue, host, adapter, None), _run(catalogue, host, adapter, fast)):
            assert [(v.module_name, v.state) for v in observation.plugins] == expected


def test_the_plugins_eligible_under_a_strategy_are_those_each_decision_allows():
    manifests = [sleeper("alpha"), protected("beta"), plugin("gamma", sleep_brief="b"), sleeper("plugin_activation"),
                 plugin("delta", allow_sleep=True, sleep_brief=" \t")]
    for strategy in Strategy:
        expected = {m.module_name for m in manifests if is_sleep_eligible(m, strategy, SEMANTICS)}
        assert sleep_eligible_names(manifests, strategy, SEMANTICS) == expected


def test_active_views_keep_prompt_order_and_counters_of_hidden_or_ineligible_plugins_are_dropped():
    catalogue = Catalogue.of([sleeper("alpha"), sleeper("beta"), sleeper("gamma", support_adapter=("qq",)),
                              sleeper("delta")])
    host = HostConfig(enabled=("alpha", "beta", "gamma", "delta"), strategies={"alpha": Strategy.FORBID_SLEEP})
    counters = {"c": {"delta": 1, "gamma": 3, "beta": 2, "alpha": 4}}
    before, event = SchedulerState(host=host, counters=counters), StartRun(conversation="c", adapter="discord")
    for state, observation in (step(catalogue, before, event, SEMANTICS), FastScheduler(SEMANTICS).step(catalogue, before, event)):
        assert isinstance(observation, RunObservation)
        assert [(v.module_name, v.state.value, v.rounds_left) for v in observation.plugins] == [
            ("alpha", "always_awake", None), ("beta", "active", 2), ("delta", "active", 1)]
        assert state.counters_of("c") == {"beta": 1}

