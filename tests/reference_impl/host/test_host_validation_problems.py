"""Load order and validation problems, with their exact messages (HOST-LOAD-*, HOST-REG-1, HOST-VAL-*)."""

from __future__ import annotations

import pytest
from support.host_checks import manifest

from reference_impl.catalogue import DuplicateModule
from reference_impl.host import create
from reference_impl.host_commands import Load, Start
from reference_impl.lifecycle import dependency_cycles, plan
from reference_impl.model import HostConfig
from reference_impl.problems import Origin, Severity, SourceKind


def _has_errors(result) -> bool:
    return any(p.severity is Severity.ERROR for p in result.problems)


def _plan(plugins, enabled=None, **host):
    enabled = tuple(m.module_name for m in plugins if not m.builtin) if enabled is None else enabled
    return plan(plugins, HostConfig(enabled=enabled, **host))


def test_built_ins_load_first_in_installation_order_then_the_enabled_list_in_its_order() -> None:
    plugins = (manifest("zeta"), manifest("core2", builtin=True), manifest("alpha"), manifest("core1", builtin=True))
    result = _plan(plugins, enabled=("zeta", "alpha", "zeta"))
    assert result.load_order == ("core2", "core1", "zeta", "alpha")


def test_a_disabled_plugin_is_not_loaded_even_when_built_in() -> None:
    plugins = (manifest("core", builtin=True), manifest("weather"))
    result = _plan(plugins, disabled=frozenset({"core", "weather"}))
    assert result.load_order == ()


def test_an_enabled_entry_that_is_not_installed_is_a_warning_and_the_others_still_load() -> None:
    result = _plan((manifest("a"), manifest("b")), enabled=("a", "ghost", "b"))
    assert result.load_order == ("a", "b")
    [problem] = result.problems
    assert problem.code == "plugin-not-found"
    assert problem.severity is Severity.WARNING
    assert problem.message == "enabled plugin 'ghost' is not installed; it is skipped"
    assert problem.origin == Origin(kind=SourceKind.HOST_CONFIG, pointer="/enabled/1")
    assert not _has_errors(result)


def test_two_plugins_with_one_module_name_are_refused() -> None:
    with pytest.raises(DuplicateModule):
        _plan((manifest("a"), manifest("a")))


@pytest.mark.parametrize(("installed", "host", "why"), [
    ((), {}, "which is not installed; install it or remove the dependency"),
    ((manifest("memory"),), {}, "which is installed but not enabled; add it to enabled"),
    ((manifest("memory", builtin=True),), {"disabled": frozenset({"memory"})},
     "which is disabled; enable it or remove the dependency"),
])
def test_a_missing_dependency_is_an_error_naming_the_plugin_and_the_missing_module(installed, host, why) -> None:
    plugins = (manifest("weather", deps=["core", "memory"]), manifest("core"), *installed)
    result = plan(plugins, HostConfig(enabled=("weather", "core"), **host))
    [problem] = result.problems
    assert problem.code == "missing-dependency"
    assert problem.message == f"plugin 'weather' depends on 'memory', {why}"
    assert problem.plugins == ("weather", "memory")
    assert problem.origin == Origin(kind=SourceKind.MANIFEST, name="weather", pointer="/dependencies/1")


def test_a_plugin_with_a_missing_dependency_and_its_dependents_are_not_set_up_but_the_others_are() -> None:
    plugins = (manifest("weather", deps=["memory"]), manifest("alerts", deps=["weather"]), manifest("dice"))
    result = _plan(plugins)
    assert result.invalid == {"weather": ("missing-dependency",)}
    assert result.blocked == {"alerts": "weather"}
    assert result.setup_order == ("dice",)


def test_a_dependency_cycle_is_an_error_naming_the_plugins_along_it_in_order() -> None:
    plugins = (manifest("a", deps=["b"]), manifest("b", deps=["c"]), manifest("c", deps=["a"]))
    [problem] = _plan(plugins).problems
    assert problem.code == "dependency-cycle"
    assert problem.message == "dependency cycle a -> b -> c -> a; remove one of these dependencies"
    assert problem.plugins == ("a", "b", "c")
    assert problem.origin == Origin(kind=SourceKind.MANIFEST, name="a", pointer="/dependencies/0")


def test_a_cycle_is_reported_from_its_earliest_loaded_plugin() -> None:
    plugins = (manifest("a", deps=["b"]), manifest("b", deps=["c"]), manifest("c", deps=["a"]))
    [problem] = _plan(plugins, enabled=("c", "a", "b")).problems
    assert problem.message == "dependency cycle c -> a -> b -> c; remove one of these dependencies"


def test_a_plugin_depending_on_itself_is_a_cycle_of_one() -> None:
    [problem] = _plan((manifest("a", deps=["x", "a"]), manifest("x"))).problems
    assert problem.message == "dependency cycle a -> a; remove one of these dependencies"
    assert problem.origin is not None and problem.origin.pointer == "/dependencies/1"


def test_every_plugin_on_some_cycle_is_named_by_a_reported_cycle() -> None:
    deps = {"a": ["b", "c"], "b": ["a"], "c": ["a"], "d": ["a"]}
    assert dependency_cycles(("a", "b", "c", "d"), deps) == (("a", "b", "a"), ("c", "a", "c"))


def test_plugins_on_a_cycle_are_invalid_and_their_dependents_are_blocked() -> None:
    plugins = (manifest("a", deps=["b"]), manifest("b", deps=["a"]), manifest("user", deps=["b"]), manifest("free"))
    result = _plan(plugins)
    assert set(result.invalid) == {"a", "b"}
    assert result.blocked == {"user": "a"}
    assert result.setup_order == ("free",)


SCHEMA = {"type": "object", "properties": {"units": {"enum": ["metric", "imperial"]}}, "required": ["units"]}


def test_a_config_invalid_against_the_plugin_schema_is_an_error_located_where_the_value_was_written() -> None:
    plugins = (manifest("weather", defaults={"units": "metric"}, schema=SCHEMA),)
    result = _plan(plugins, config={"weather": {"units": "kelvin"}})
    [problem] = result.problems
    assert problem.code == "invalid-config"
    assert problem.message == "plugin 'weather' config at /units: 'kelvin' is not one of ['metric', 'imperial']"
    assert problem.origin == Origin(kind=SourceKind.HOST_CONFIG, pointer="/config/weather/units")
    assert result.invalid == {"weather": ("invalid-config",)}


def test_a_missing_required_key_points_at_the_schema_rule() -> None:
    [problem] = _plan((manifest("weather", schema=SCHEMA),)).problems
    assert problem.message == "plugin 'weather' config at /: 'units' is a required property"
    assert problem.origin == Origin(kind=SourceKind.MANIFEST, name="weather", pointer="/config/schema/required")


def test_an_error_inside_a_list_points_at_the_list_that_holds_it() -> None:
    schema = {"type": "object", "properties": {"tags": {"items": {"type": "string"}}}}
    [problem] = _plan((manifest("w", defaults={"tags": ["a", 3]}, schema=schema),)).problems
    assert problem.message == "plugin 'w' config at /tags/1: 3 is not of type 'string'"
    assert problem.origin == Origin(kind=SourceKind.MANIFEST, name="w", pointer="/config/defaults/tags")


@pytest.mark.parametrize(("schema", "pointer"), [
    ({"type": 5}, "/config/schema/type"),
    ({"$ref": "https://example.com/never-fetched.json"}, "/config/schema"),
    ({"properties": {"s": {"pattern": "(["}}}, "/config/schema/properties/s/pattern"),
])
def test_an_unusable_config_schema_is_an_error_and_nothing_is_fetched(schema, pointer) -> None:
    [problem] = _plan((manifest("w", schema=schema),)).problems
    assert problem.code == "invalid-config-schema"
    assert problem.message.startswith("plugin 'w' has a config schema that cannot be used: ")
    assert problem.origin == Origin(kind=SourceKind.MANIFEST, name="w", pointer=pointer)


def test_every_problem_is_reported_not_only_the_first() -> None:
    plugins = (manifest("a", deps=["gone"], schema=SCHEMA), manifest("b", deps=["b"]))
    result = _plan(plugins, enabled=("a", "b", "ghost"))
    assert [p.code for p in result.problems] == ["plugin-not-found", "missing-dependency", "dependency-cycle",
                                                 "invalid-config"]
    assert result.invalid == {"a": ("missing-dependency", "invalid-config"), "b": ("dependency-cycle",)}


def test_registration_declares_every_loaded_plugin_and_sets_up_none_before_start() -> None:
    plugins = (manifest("core", builtin=True), manifest("a", deps=["gone"]), manifest("b"))
    engine = create()
    load, start = engine.apply(Load(plugins=plugins, host=HostConfig(enabled=("a", "b")))), engine.apply(Start())
    kinds = [(e.kind.value, e.module_name) for e in load.events]
    assert kinds == [("registered", "core"), ("registered", "a"), ("registered", "b"), ("invalid", "a")]
    assert load.events[-1].reason == "missing-dependency"
    assert [e.module_name for e in start.events if e.kind.value == "set_up"] == ["core", "b"]


def test_a_plan_with_only_warnings_has_no_errors() -> None:
    assert not _has_errors(_plan((manifest("a"),), enabled=("a", "ghost")))
    assert _has_errors(_plan((manifest("a", deps=["x"]),)))
