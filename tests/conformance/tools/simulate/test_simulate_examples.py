"""The bundled example set: valid, realistic, shipped inside the package, and runnable."""

from __future__ import annotations

from pathlib import Path

import pytest

import conformance
from conformance.documents.loader import load_mapping
from conformance.documents.plugin_set import load_plugin_set
from conformance.documents.schemas import check_against
from conformance.tools.simulate.script import parse_script
from conformance.tools.simulate.simulation import (
    DEFAULT_SCRIPT,
    EXAMPLE_HOST,
    EXAMPLE_PLUGINS,
    EXAMPLES_DIR,
    simulate,
)
from reference_impl.eligibility import is_sleep_eligible
from reference_impl.model import Strategy
from reference_impl.semantics import load_semantics

ROOT = Path(__file__).resolve().parents[4]
MANIFESTS = sorted(EXAMPLE_PLUGINS.glob("*.yaml"))
MODELINE = "# yaml-language-server: $schema=https://plugin-activation-spec.org/schemas/1.0/{}.schema.json"


def _by_name():
    loaded = load_plugin_set(EXAMPLE_PLUGINS)
    assert loaded.problems == ()
    return {m.module_name: m for m in loaded.manifests}


def _host():
    loaded = load_plugin_set(EXAMPLE_PLUGINS, EXAMPLE_HOST)
    assert loaded.problems == ()
    return loaded.host


def test_the_example_set_lives_inside_the_package_so_it_ships_in_the_wheel():
    package = Path(conformance.__file__).resolve().parent
    assert EXAMPLES_DIR.parent == package
    assert EXAMPLE_HOST.is_file() and DEFAULT_SCRIPT.is_file()
    assert len(MANIFESTS) >= 12


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.stem)
def test_each_example_manifest_validates_against_the_manifest_schema(path):
    doc, problems = load_mapping(path)
    assert problems == []
    assert check_against("plugin-manifest", doc) == []
    assert doc.ambiguous == []
    assert doc.value["kind"] == "plugin-manifest"
    assert doc.value["module_name"] == path.stem


@pytest.mark.parametrize("path", [*MANIFESTS, EXAMPLE_HOST], ids=lambda p: p.stem)
def test_each_example_starts_with_the_schema_modeline(path):
    kind = "host-config" if path == EXAMPLE_HOST else "plugin-manifest"
    assert path.read_text(encoding="utf-8").splitlines()[0] == MODELINE.format(kind)


def test_the_example_host_config_validates_and_names_only_example_plugins():
    doc, problems = load_mapping(EXAMPLE_HOST)
    assert problems == [] and check_against("host-config", doc) == []
    host = _host()
    plugins = _by_name()
    assert doc.value["kind"] == "host-config"
    assert set(host.enabled) | set(host.strategies) <= set(plugins)
    assert host.scheduler_enabled is True
    assert set(host.strategies.values()) == {Strategy.ALLOW_SLEEP, Strategy.FORBID_SLEEP}
    builtin = {name for name, m in plugins.items() if m.builtin}
    assert set(host.enabled) == set(plugins) - builtin


def test_the_examples_have_nekroagents_eligibility_mix():
    plugins = _by_name()
    protected = {n for n, m in plugins.items() if m.allow_sleep is False}
    opted_in = {n for n, m in plugins.items() if m.allow_sleep is True and m.brief}
    unset_with_brief = {n for n, m in plugins.items() if m.allow_sleep is None and m.brief}
    assert protected == {"basic", "status", "memory_tools", "plugin_activation"}
    assert {"draw", "github", "google_search", "view_image", "weather", "note"} <= opted_in
    assert unset_with_brief == {"dice", "timer", "emotion"}
    assert [n for n, m in plugins.items() if m.support_adapter] == ["minecraft_utils"]
    assert any(not m.name.isascii() and not m.brief.isascii() for m in plugins.values())


def test_the_host_strategies_change_eligibility_as_the_comments_say():
    plugins = _by_name()
    host = _host()
    assert is_sleep_eligible(plugins["dice"], host.strategy_for("dice"), load_semantics()) is True
    assert is_sleep_eligible(plugins["github"], host.strategy_for("github"), load_semantics()) is False
    assert is_sleep_eligible(plugins["timer"], host.strategy_for("timer"), load_semantics()) is False


def test_every_example_method_has_a_description():
    for manifest in _by_name().values():
        assert manifest.methods, manifest.module_name
        assert all(method.description.strip() for method in manifest.methods), manifest.module_name


def test_the_session_script_in_the_checkout_runs_without_problems():
    text = (ROOT / "examples" / "session.pas").read_text(encoding="utf-8")
    result = simulate(text, script_name="examples/session.pas")
    assert result.ok and result.problems == ()
    outcomes = {getattr(step.observation, "outcome", None) for step in result.steps}
    assert {"activated", "already_active", "always_awake", "not_found", "invalid_argument", "extended",
            "applied", "rejected"} <= {str(o) for o in outcomes if o is not None}


def test_the_default_script_is_the_worked_example():
    commands, problems = parse_script(DEFAULT_SCRIPT.read_text(encoding="utf-8"))
    assert problems == ()
    assert [c.text for c in commands] == ["run", "activate weather 3", "run", "run", "run", "run"]


def test_the_checkout_examples_folder_points_to_the_packaged_set():
    readme = (ROOT / "examples" / "README.md").read_text(encoding="utf-8")
    assert "conformance/examples/" in readme
    assert not list((ROOT / "examples").glob("plugins/*.yaml")), "the canonical example set lives in the package"
    assert not (ROOT / "examples" / "host.yaml").exists()
