"""Values that are values: the reference's types are immutable all the way down, hashable, and equal by value.

Constructors take plain dicts and lists (what callers and ``from_json`` hand them) and freeze
them; ``to_json`` gives plain dicts and lists back.
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest
from support.refimpl_builders import SEMANTICS, plugin, sleeper

from reference_impl.catalogue import Catalogue
from reference_impl.events import (
    Activate,
    AdminObservation,
    CallObservation,
    Extend,
    PluginView,
    RunObservation,
    SetStrategy,
    StartRun,
    event_from_json,
)
from reference_impl.frozen import EMPTY, FrozenMap, freeze, thaw
from reference_impl.host_observations import MergedConfig
from reference_impl.model import (
    AdminOutcome,
    HostConfig,
    Manifest,
    Method,
    MethodKind,
    OutcomeKind,
    PluginState,
    Strategy,
)
from reference_impl.scheduler import SchedulerState

NESTED = {"units": "metric", "api": {"hosts": ["a", "b"], "retry": {"times": 2}}}


def _manifest(**fields: Any) -> Manifest:
    return Manifest.from_json({"name": "W", "module_name": "weather", "version": "1.0.0", "description": "d",
                               "config": {"defaults": NESTED, "schema": {"type": "object", "required": ["units"]}},
                               "methods": [{"name": "get", "kind": "tool", "description": "d",
                                            "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}],
                               "x-vendor": {"tags": ["x"]}, **fields})


def _plain(value: Any) -> bool:
    """True when ``value`` is made of dicts, lists and scalars only (what JSON encoders take)."""
    if isinstance(value, dict):
        return type(value) is dict and all(_plain(v) for v in value.values())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return isinstance(value, (str, int, float, bool, type(None)))


@pytest.mark.parametrize("value", [
    HostConfig(), SchedulerState(), Catalogue(), SEMANTICS, _manifest(),
    HostConfig(enabled=("a",), strategies={"a": Strategy.FORBID_SLEEP}, config={"a": NESTED}),
    SchedulerState(counters={"c": {"a": 2}}), Catalogue.of([sleeper("a"), plugin("b")]),
    Activate(conversation="c", module_name="a", rounds=[1, {"x": [2]}]), SetStrategy(module_name="a", strategy={"k": []}),
    RunObservation(plugins=[PluginView(module_name="a", state=PluginState.SLEEPING, rounds_left=None, hint=False,
                                       brief_shown=True, methods_shown=False, injection_called=False)]),
    CallObservation(outcome=OutcomeKind.NOT_FOUND, module_name="a", ends_step=True),
    AdminObservation(outcome=AdminOutcome.APPLIED), MergedConfig(value=NESTED, provenance={}),
], ids=lambda v: type(v).__name__)
def test_every_value_is_hashable_and_survives_pickle_and_deepcopy_equal_with_an_equal_hash(value):
    assert hash(value) == hash(value)
    for copied in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value), copy.copy(value)):
        assert copied == value
        assert hash(copied) == hash(value)


def test_a_host_configs_strategies_cannot_be_changed_in_place():
    host = HostConfig(strategies={})
    with pytest.raises(TypeError):
        host.strategies["x"] = Strategy.FORBID_SLEEP  # type: ignore[index]
    assert host == HostConfig()


def test_nested_json_is_frozen_all_the_way_down():
    manifest = _manifest()
    host = HostConfig(config={"weather": NESTED})
    for frozen in (manifest.config_defaults, host.config["weather"], manifest.extensions["x-vendor"],
                   manifest.methods[0].parameters["properties"], manifest.config_schema):
        assert isinstance(frozen, FrozenMap)
        with pytest.raises(TypeError):
            frozen["new"] = 1  # type: ignore[index]
    assert manifest.config_defaults["api"]["hosts"] == ("a", "b")
    with pytest.raises(TypeError):
        manifest.config_defaults["api"]["retry"]["times"] = 3
    with pytest.raises(AttributeError):
        host.config["weather"]["api"]["hosts"].append("c")
    state = SchedulerState(counters={"c": {"a": 2}})
    with pytest.raises(TypeError):
        state.counters["c"]["a"] = 5  # type: ignore[index]


def test_constructors_take_plain_dicts_and_lists_and_equal_values_are_equal_whatever_they_were_built_from():
    assert HostConfig(enabled=["a"], disabled={"b"}, strategies={"a": Strategy.AUTO}) == HostConfig(
        enabled=("a",), disabled=frozenset({"b"}), strategies=FrozenMap({"a": Strategy.AUTO}))
    assert Manifest(name="A", module_name="a", version="1", description="d", hooks=["h"], config_defaults={"k": [1]}) \
        == Manifest(name="A", module_name="a", version="1", description="d", hooks=("h",), config_defaults=freeze({"k": [1]}))
    assert Method(name="m", kind=MethodKind.TOOL, description="d", parameters={"a": {}}).parameters == {"a": {}}
    assert SchedulerState(counters={"c": {"a": 1}}) == SchedulerState(counters=FrozenMap({"c": FrozenMap({"a": 1})}))
    assert Activate(conversation="c", module_name="a", rounds=[2]) == Activate(conversation="c", module_name="a", rounds=(2,))
    assert hash(HostConfig(strategies={"b": Strategy.AUTO, "a": Strategy.AUTO})) == hash(
        HostConfig(strategies={"a": Strategy.AUTO, "b": Strategy.AUTO}))


def test_to_json_gives_plain_json_that_builds_the_same_value_again():
    manifest = _manifest()
    assert _plain(manifest.to_json()) and Manifest.from_json(manifest.to_json()) == manifest
    host = HostConfig(enabled=("weather",), strategies={"weather": Strategy.ALLOW_SLEEP}, config={"weather": NESTED})
    assert _plain(host.to_json()) and HostConfig.from_json(host.to_json()) == host
    state = SchedulerState(host=host, counters={"c": {"weather": 3}})
    assert _plain(state.to_json()) and SchedulerState.from_json(state.to_json(), SEMANTICS) == state
    for event in (Activate(conversation="c", module_name="a", rounds={"r": [1]}), Extend(conversation="c", module_name="a"),
                  SetStrategy(module_name="a", strategy=["auto"]), StartRun(conversation="c")):
        assert _plain(event.to_json()) and event_from_json(event.to_json()) == event
    assert _plain(MergedConfig(value=NESTED).to_json()["config"])


def test_catalogues_are_equal_when_they_install_equal_manifests_in_the_same_order():
    a, b = sleeper("a"), plugin("b", builtin=True)
    assert Catalogue.of([a, b]) == Catalogue.of([sleeper("a"), plugin("b", builtin=True)])
    assert Catalogue.of([a, b]) != Catalogue.of([b, a])  # the order decides which built-in loads first
    assert Catalogue.of([a]) != Catalogue.of([plugin("a", allow_sleep=True, sleep_brief="Another brief.")])


def test_frozen_maps_compare_like_dicts_and_the_empty_one_is_shared():
    assert FrozenMap({"a": 1}) == {"a": 1} and FrozenMap({"a": 1}) != {"a": 2}
    assert FrozenMap() is EMPTY and FrozenMap({}) is EMPTY
    frozen = FrozenMap({"a": [1]})
    assert FrozenMap(frozen) is frozen and freeze(frozen) is frozen
    assert thaw(frozen) == {"a": [1]} and type(thaw(frozen)) is dict
    assert repr(frozen) == "FrozenMap({'a': (1,)})"
    with pytest.raises(TypeError):
        hash(FrozenMap({"a": {1, 2}}))  # a set is not a JSON value: freeze keeps it, and it cannot be hashed
