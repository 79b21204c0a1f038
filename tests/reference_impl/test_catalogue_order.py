"""The catalogue: what is installed, what is loaded in which order, what a conversation sees."""

from __future__ import annotations

import pytest
from support.refimpl_builders import available, plugin, protected, sleeper

from reference_impl.catalogue import Catalogue, DuplicateModule
from reference_impl.errors import PasError
from reference_impl.model import HostConfig

INSTALLED = (
    sleeper("weather"),
    protected("basic", builtin=True),
    sleeper("note"),
    protected("status", builtin=True),
    sleeper("qq_only", support_adapter=("onebot",)),
    plugin("calc"),
)


def test_builtins_load_first_in_installation_order_then_the_enabled_list_as_declared_HOST_LOAD_1():
    """Covers: HOST-LOAD-1."""
    catalogue = Catalogue.of(INSTALLED)
    host = HostConfig(enabled=("note", "calc", "weather"))
    assert catalogue.load_order(host) == ("basic", "status", "note", "calc", "weather")


def test_an_enabled_entry_that_is_not_installed_is_skipped_HOST_LOAD_2():
    """Covers: HOST-LOAD-2."""
    catalogue = Catalogue.of(INSTALLED)
    host = HostConfig(enabled=("ghost", "note", "phantom"))
    assert catalogue.load_order(host) == ("basic", "status", "note")


def test_a_plugin_named_twice_or_a_builtin_named_again_is_loaded_once():
    """Covers: HOST-LOAD-1 (each plugin loads once, at its first place)."""
    catalogue = Catalogue.of(INSTALLED)
    host = HostConfig(enabled=("note", "status", "note", "calc"))
    assert catalogue.load_order(host) == ("basic", "status", "note", "calc")


def test_two_manifests_with_one_module_name_are_refused():
    with pytest.raises(DuplicateModule) as caught:
        Catalogue.of([sleeper("weather"), plugin("weather", name="Other weather")])
    assert caught.value.module_name == "weather"
    assert "weather" in str(caught.value)
    assert isinstance(caught.value, PasError)


def test_available_leaves_out_disabled_unloaded_and_adapter_excluded_plugins_ACT_STATE_5():
    """Covers: ACT-STATE-5."""
    catalogue = Catalogue.of(INSTALLED)
    host = HostConfig(enabled=("weather", "qq_only", "calc"), disabled=frozenset({"status", "calc"}))
    names = lambda adapter: [m.module_name for m in available(catalogue, host, adapter)]  # noqa: E731 - a one-line helper reads better here
    assert names(None) == ["basic", "weather", "qq_only"]
    assert names("onebot") == ["basic", "weather", "qq_only"]
    assert names("discord") == ["basic", "weather"]


@pytest.mark.parametrize(("module", "adapter", "found"), [
    ("basic", None, True),
    ("status", None, False),
    ("weather", None, True),
    ("note", None, False),
    ("qq_only", "onebot", True),
    ("qq_only", "discord", False),
    ("qq_only", None, True),
    ("ghost", None, False),
])
def test_find_available_agrees_with_available(module, adapter, found):
    """A call may name exactly the plugins a run would show (ACT-ACTIVATE-1)."""
    catalogue = Catalogue.of(INSTALLED)
    host = HostConfig(enabled=("weather", "qq_only"), disabled=frozenset({"status"}))
    assert (catalogue.find_available(module, host, adapter) is not None) is found
    assert (module in [m.module_name for m in available(catalogue, host, adapter)]) is found


def test_the_installed_manifests_cannot_be_changed_through_the_catalogue():
    catalogue = Catalogue.of(INSTALLED)
    with pytest.raises(TypeError):
        catalogue.manifests["ghost"] = plugin("ghost")  # type: ignore[index]
