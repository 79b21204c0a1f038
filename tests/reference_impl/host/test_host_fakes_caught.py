"""Every deliberately broken host in tests/fakes fails the check aimed at it; the reference fails none."""

from __future__ import annotations

import pytest
from hypothesis import Phase, find, settings
from support.fakes import FAKES, load_fake
from support.host_checks import (
    CHECKS,
    World,
    check_config_merge,
    check_hook_order,
    check_setup_order,
    check_shutdown_reverse,
    manifest,
    run_world,
    violations,
    worlds,
)

from reference_impl.host import create
from reference_impl.host_commands import Behaviour
from reference_impl.model import HostConfig

# One world exposes all four classic bugs: a dependency listed after its dependent, a nested
# default partly overridden by the file, several plugins to shut down, and a raising first hook.
EXAMPLE = World(
    plugins=(
        manifest("core", builtin=True, hooks=["before_tool_call"]),
        manifest("notes", deps=["memory"], hooks=["before_tool_call"]),
        manifest("memory", hooks=["before_tool_call"], defaults={"store": {"kind": "ram", "size": 3}}),
        manifest("dice"),
    ),
    host=HostConfig(enabled=("notes", "memory", "dice"), config={"memory": {"store": {"size": 5}}}),
    overrides=("dice.faces.count=6",),
    behaviour=Behaviour(hook_raises={"core": frozenset({"before_tool_call"})}),
)
SIMPLE = World(plugins=(manifest("a"), manifest("b", deps=["a"])), host=HostConfig(enabled=("a", "b")))
EXAMPLES = (EXAMPLE, SIMPLE)

CAUGHT_BY = {
    "host_broken_shallow_merge": check_config_merge,
    "host_broken_setup_before_dependency": check_setup_order,
    "host_broken_teardown_in_load_order": check_shutdown_reverse,
    "host_broken_hook_stops": check_hook_order,
}




def test_every_host_fake_in_the_fakes_folder_is_listed_here() -> None:
    assert sorted(p.stem for p in FAKES.glob("host_broken_*.py")) == sorted(CAUGHT_BY)


@pytest.mark.parametrize("world", EXAMPLES, ids=["example", "simple"])
def test_the_reference_host_passes_every_check(world: World) -> None:
    assert violations(create, world) == []


@pytest.mark.parametrize("name", sorted(CAUGHT_BY))
def test_each_broken_host_fails_exactly_the_check_aimed_at_its_bug(name: str) -> None:
    run = run_world(load_fake(name).create, EXAMPLE)
    failing = {check.__name__ for check in CHECKS if check(EXAMPLE, run)}
    assert failing == {CAUGHT_BY[name].__name__}


@pytest.mark.parametrize("name", sorted(CAUGHT_BY))
def test_the_property_search_finds_a_world_that_each_broken_host_gets_wrong(name: str) -> None:
    factory, check = load_fake(name).create, CAUGHT_BY[name]
    config = name == "host_broken_shallow_merge"
    found = find(worlds(max_plugins=4, config=config), lambda w: bool(check(w, run_world(factory, w))),
                 settings=settings(max_examples=300, database=None, deadline=None, derandomize=True,
                                   phases=(Phase.generate,)))
    assert check(found, run_world(factory, found))
    assert check(found, run_world(create, found)) == []
