"""Properties of lifecycle order, isolation and hooks (HOST-LIFE-1..3, HOST-HOOK-1/2, HOST-CFG-1/2)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from support.host_checks import (
    check_config_merge,
    check_hook_order,
    check_isolation,
    check_setup_order,
    check_shutdown_reverse,
    run_world,
    worlds,
)

from reference_impl.host import create
from reference_impl.lifecycle import run_setup, setup_order

PROPERTY = settings(max_examples=60, deadline=None, database=None)


@PROPERTY
@given(worlds())
def test_the_setup_order_is_the_topological_order_that_prefers_the_earliest_loaded_ready_plugin(world) -> None:
    assert check_setup_order(world, run_world(create, world)) == []


@PROPERTY
@given(worlds())
def test_stop_and_teardown_are_the_exact_reverse_of_start_and_setup(world) -> None:
    assert check_shutdown_reverse(world, run_world(create, world)) == []


@PROPERTY
@given(worlds())
def test_a_failed_setup_starts_no_transitive_dependent_and_every_other_plugin(world) -> None:
    run = run_world(create, world)
    assert check_isolation(world, run) == []
    if world.behaviour.setup_fails:
        assert not set(world.behaviour.setup_fails) & set(e["module_name"] for e in run["start"]["events"]
                                                           if e["event"] == "started")


@PROPERTY
@given(worlds())
def test_hook_subscribers_run_in_load_order_and_one_exception_never_stops_the_others(world) -> None:
    assert check_hook_order(world, run_world(create, world)) == []


@settings(max_examples=40, deadline=None, database=None)
@given(worlds(max_plugins=3, config=True))
def test_every_plugin_config_read_back_from_the_host_is_the_deep_merge_of_its_layers(world) -> None:
    assert check_config_merge(world, run_world(create, world)) == []


def _graph(nodes: list[tuple[frozenset[int], int, bool]]) -> tuple[list[str], list[list[str]], frozenset[str]]:
    """Load order, dependency lists (an index past the last node is a module that is not loaded), marked set."""
    names = [f"n{i}" for i in range(len(nodes))]
    order = [names[i] for i in sorted(range(len(nodes)), key=lambda i: (nodes[i][1], i))]
    deps = [[names[d] if d < len(names) else "gone" for d in sorted(targets)] for targets, _, _ in nodes]
    return order, deps, frozenset(n for n, (_, _, marked) in zip(names, nodes) if marked)


# Any digraph over n0..n5, cycles and dangling dependencies included, with some nodes marked.
GRAPHS = st.lists(st.tuples(st.frozensets(st.integers(0, 6), max_size=3), st.integers(0, 99),
                            st.integers(0, 3).map(lambda k: k == 0)), min_size=1, max_size=6).map(_graph)


def _orderable(order, deps, exclude) -> set[str]:
    """The least fixpoint: a plugin is orderable when it is not excluded and every dependency is orderable."""
    good: set[str] = set()
    while True:
        more = {n for n in order if n not in exclude and n not in good and all(d in good for d in deps[n])}
        if not more:
            return good
        good |= more


@settings(max_examples=150, deadline=None, database=None)
@given(GRAPHS)
def test_setup_order_keeps_exactly_the_plugins_free_of_cycles_and_gaps_and_puts_dependencies_first(graph) -> None:
    order, dep_lists, exclude = graph
    deps = {f"n{i}": tuple(d) for i, d in enumerate(dep_lists)}
    result = setup_order(order, deps, exclude)
    assert set(result) == _orderable(order, deps, exclude)
    for position, name in enumerate(result):
        assert all(d in result[:position] for d in deps[name])
        ready = [n for n in order if n in result and n not in result[:position]
                 and all(d in result[:position] for d in deps[n])]
        assert name == ready[0]


@settings(max_examples=150, deadline=None, database=None)
@given(GRAPHS)
def test_simulated_setup_skips_exactly_the_transitive_dependents_of_failures_naming_a_failed_cause(graph) -> None:
    order, dep_lists, failing = graph
    deps = {f"n{i}": tuple(d) for i, d in enumerate(dep_lists)}
    ordered = setup_order(order, deps)
    outcomes = run_setup(ordered, deps, failing, order)
    assert [o.module_name for o in outcomes] == list(ordered)

    reached: set[str] = set()
    frontier = [n for n in failing if n in ordered]
    while frontier:
        node = frontier.pop()
        for name in ordered:
            if node in deps[name] and name not in reached:
                reached.add(name)
                frontier.append(name)
    for outcome in outcomes:
        assert bool(outcome.cause) == (outcome.module_name in reached)
        assert outcome.failed == (outcome.module_name in failing and outcome.module_name not in reached)
        if outcome.cause:
            assert outcome.cause in failing
            assert outcome.cause in _needs(outcome.module_name, deps)
            # HOST-LIFE-5: the earliest loaded of the failed plugins it needs
            failed_needed = [n for n in _needs(outcome.module_name, deps) if n in failing and n not in reached]
            assert outcome.cause == min(failed_needed, key=order.index)


def _needs(name: str, deps) -> set[str]:
    """Every plugin ``name`` depends on, directly or transitively."""
    found: set[str] = set()
    frontier = [name]
    while frontier:
        for dependency in deps.get(frontier.pop(), ()):
            if dependency not in found:
                found.add(dependency)
                frontier.append(dependency)
    return found
