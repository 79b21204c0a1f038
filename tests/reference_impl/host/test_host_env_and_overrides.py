"""Environment variables and command-line overrides as config layers (HOST-CFG-1, HOST-CFG-5, HOST-CFG-6)."""

from __future__ import annotations

from typing import Any

import pytest
from support.host_checks import manifest

from reference_impl.frozen import thaw
from reference_impl.host_config import parse_value
from reference_impl.host_observations import Layer
from reference_impl.lifecycle import HostPlan, plan
from reference_impl.model import HostConfig
from reference_impl.problems import Severity, SourceKind

WEATHER = manifest("weather", defaults={"units": "metric", "api": {"timeout_s": 10, "retries": 2}})


def _plan(environment: dict[str, str] | None = None, overrides: tuple[str, ...] = (), *, plugins=(WEATHER,),
          file: dict[str, Any] | None = None) -> HostPlan:
    host = HostConfig(enabled=tuple(m.module_name for m in plugins), config=file or {})
    return plan(plugins, host, environment or {}, overrides)


def _config(result: HostPlan, name: str = "weather") -> Any:
    return thaw(result.configs[name].value)


@pytest.mark.parametrize(("text", "value"), [
    ("imperial", "imperial"),
    ("5", 5),
    ("2.5", 2.5),
    ("true", True),
    ("null", None),
    ('"5"', "5"),
    ("[1, 2]", [1, 2]),
    ('{"a": 1}', {"a": 1}),
    (" 7 ", 7),
    ("", ""),
    ("NaN", "NaN"),
    ("Infinity", "Infinity"),
    ("-Infinity", "-Infinity"),
    (" metric ", " metric "),
    ("{not json", "{not json"),
    ("[" * 100_000, "[" * 100_000),
])
def test_a_value_is_parsed_as_json_when_it_parses_and_kept_as_a_string_otherwise(text: str, value: Any) -> None:
    assert parse_value(text) == value


def test_an_environment_variable_sets_a_top_level_key_as_a_string_when_it_is_not_json() -> None:
    result = _plan({"PAS__WEATHER__UNITS": "imperial"})
    assert _config(result)["units"] == "imperial"
    provenance = result.configs["weather"].provenance["/units"]
    assert provenance.layer is Layer.ENVIRONMENT
    assert (provenance.origin.kind, provenance.origin.name) == (SourceKind.ENVIRONMENT, "PAS__WEATHER__UNITS")


def test_an_environment_variable_with_more_segments_sets_a_nested_key_and_keeps_its_siblings() -> None:
    result = _plan({"PAS__WEATHER__API__TIMEOUT_S": "5"})
    assert _config(result)["api"] == {"timeout_s": 5, "retries": 2}


def test_an_environment_mapping_value_is_deep_merged_over_the_lower_layers() -> None:
    result = _plan({"PAS__WEATHER__API": '{"retries": 9, "proxy": "p"}'})
    assert _config(result)["api"] == {"timeout_s": 10, "retries": 9, "proxy": "p"}
    assert result.configs["weather"].provenance["/api/proxy"].origin.name == "PAS__WEATHER__API"


def test_the_environment_wins_over_the_file_and_the_file_over_the_defaults() -> None:
    result = _plan({"PAS__WEATHER__UNITS": "imperial"}, file={"weather": {"units": "si", "api": {"retries": 4}}})
    assert _config(result) == {"units": "imperial", "api": {"timeout_s": 10, "retries": 4}}
    layers = {p: v.layer for p, v in result.configs["weather"].provenance.items()}
    assert layers == {"/units": Layer.ENVIRONMENT, "/api/timeout_s": Layer.DEFAULTS, "/api/retries": Layer.FILE}


def test_a_segment_names_an_existing_key_whatever_its_case_and_a_new_key_in_lower_case() -> None:
    plugin = manifest("weather", defaults={"apiKey": "x"})
    result = _plan({"PAS__WEATHER__APIKEY": "secret", "PAS__WEATHER__NEW_KEY": "1"}, plugins=(plugin,))
    assert _config(result) == {"apiKey": "secret", "new_key": 1}


def test_the_module_and_keys_of_a_lower_case_variable_are_matched_too() -> None:
    assert _config(_plan({"PAS__weather__units": "imperial"}))["units"] == "imperial"


def test_two_keys_differing_only_in_case_make_a_variable_ambiguous_and_the_plugin_invalid() -> None:
    plugin = manifest("weather", defaults={"Units": "a", "units": "b"})
    result = _plan({"PAS__WEATHER__UNITS_X": "1", "PAS__WEATHER__UNITS": "c"}, plugins=(plugin,))
    [problem] = [p for p in result.problems if p.code == "env-ambiguous-key"]
    assert problem.message == ("the variable PAS__WEATHER__UNITS could name keys 'Units' and 'units' at the top "
                               "level of plugin 'weather'; rename one of the keys or use --set")
    assert result.invalid == {"weather": ("env-ambiguous-key",)}


def test_a_variable_naming_no_installed_plugin_is_a_warning_and_is_ignored() -> None:
    result = _plan({"PAS__NOPE__UNITS": "x"})
    [problem] = result.problems
    assert (problem.code, problem.severity) == ("env-unknown-plugin", Severity.WARNING)
    assert problem.message == "the variable PAS__NOPE__UNITS names no installed plugin; it is ignored"
    assert _config(result) == {"units": "metric", "api": {"timeout_s": 10, "retries": 2}}
    assert result.setup_order == ("weather",)


def test_a_variable_matching_two_plugins_is_an_error_naming_both_and_neither_is_set_up() -> None:
    plugins = (manifest("a"), manifest("a__b"), manifest("c"))
    result = _plan({"PAS__A__B__C": "1"}, plugins=plugins)
    [problem] = result.problems
    assert problem.code == "env-ambiguous-plugin"
    assert problem.plugins == ("a", "a__b")
    assert problem.message == ("the variable PAS__A__B__C could belong to plugins 'a' and 'a__b'; "
                               "remove the variable or rename one of the plugins")
    assert result.setup_order == ("c",)


def test_a_variable_naming_a_plugin_but_no_key_is_a_warning() -> None:
    [problem] = _plan({"PAS__WEATHER": "1"}).problems
    assert (problem.code, problem.severity) == ("env-no-key", Severity.WARNING)
    assert problem.message == "the variable PAS__WEATHER names plugin 'weather' but no key; use PAS__WEATHER__<KEY>"


def test_a_variable_with_an_empty_key_segment_is_a_warning_and_is_ignored() -> None:
    result = _plan({"PAS__WEATHER__API____X": "1"})
    assert [p.code for p in result.problems] == ["env-empty-key"]
    assert "x" not in _config(result)["api"]


def test_variables_without_the_exact_prefix_are_not_read() -> None:
    result = _plan({"pas__weather__units": "x", "PAS_WEATHER__UNITS": "y", "HOME": "/root"})
    assert result.problems == ()
    assert _config(result)["units"] == "metric"


def test_variables_are_applied_in_name_order_so_a_longer_path_wins_over_its_parent() -> None:
    result = _plan({"PAS__WEATHER__API__RETRIES": "7", "PAS__WEATHER__API": '{"retries": 1}'})
    assert _config(result)["api"]["retries"] == 7


def test_a_command_line_override_wins_over_the_environment_and_records_its_argument() -> None:
    result = _plan({"PAS__WEATHER__API__RETRIES": "7"}, ("weather.api.retries=8",))
    assert _config(result)["api"]["retries"] == 8
    provenance = result.configs["weather"].provenance["/api/retries"]
    assert provenance.layer is Layer.COMMAND_LINE
    assert provenance.origin.name == "weather.api.retries=8"


def test_later_command_line_overrides_win_over_earlier_ones_and_values_parse_like_the_environment() -> None:
    result = _plan(overrides=("weather.units=si", "weather.units=imperial", 'weather.api.proxy="5"'))
    assert _config(result)["units"] == "imperial"
    assert _config(result)["api"]["proxy"] == "5"


@pytest.mark.parametrize("text", ["weather", "weather=5", "weather..units=1", ".units=1", "weather.=1"])
def test_a_malformed_override_is_an_error(text: str) -> None:
    [problem] = _plan(overrides=(text,)).problems
    assert problem.code == "override-syntax"
    assert problem.message == f"the override '{text}' is not of the form module.key=value"


def test_an_override_naming_no_installed_plugin_is_an_error_that_invalidates_nothing() -> None:
    result = _plan(overrides=("nope.units=1",))
    [problem] = result.problems
    assert (problem.code, problem.message) == ("override-unknown-plugin",
                                               "the override 'nope.units=1' names no installed plugin 'nope'")
    assert result.setup_order == ("weather",)


def test_an_override_for_an_installed_plugin_that_is_not_loaded_is_a_warning() -> None:
    host = HostConfig(enabled=("weather",))
    result = plan((WEATHER, manifest("idle")), host, {}, ("idle.x=1",))
    [problem] = result.problems
    assert (problem.code, problem.severity) == ("override-plugin-not-loaded", Severity.WARNING)
    assert "idle" not in result.configs


def test_a_file_config_entry_naming_no_installed_plugin_is_a_warning() -> None:
    [problem] = _plan(file={"ghost": {"a": 1}}).problems
    assert (problem.code, problem.severity) == ("config-unknown-plugin", Severity.WARNING)
    assert problem.origin is not None and problem.origin.pointer == "/config/ghost"


def test_each_plugin_gets_only_its_own_namespace() -> None:
    plugins = (WEATHER, manifest("note", defaults={"secret": 1}))
    result = _plan({"PAS__NOTE__SECRET": "2"}, plugins=plugins)
    assert _config(result, "weather") == {"units": "metric", "api": {"timeout_s": 10, "retries": 2}}
    assert _config(result, "note") == {"secret": 2}
    assert "secret" not in result.configs["weather"].value


def test_only_names_starting_with_pas_exactly_are_read_in_code_point_order_of_their_names() -> None:
    """HOST-CFG-5: the prefix is upper case; the order is the names', not the environment's."""
    from reference_impl.host_config import pas_variables

    environment = {"PAS__W__b": "1", "pas__w__x": "2", "PAS__W__A": "3", "Pas__W__y": "4", "PAS__W__B": "5"}
    assert pas_variables(environment) == ["PAS__W__A", "PAS__W__B", "PAS__W__b"]


def test_an_override_is_split_at_its_first_equals_sign() -> None:
    """HOST-CFG-7."""
    from reference_impl.host_config import split_override

    assert split_override("weather.url=https://x/?a=b") == ("weather.url", "=", "https://x/?a=b")
    assert split_override("weather.units") == ("weather.units", "", "")
