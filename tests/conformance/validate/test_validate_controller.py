"""controller-sleepable: a manifest or host strategy that would let plugin_activation sleep (ACT-ELIG-8)."""

from __future__ import annotations

import pytest
from support.validate_helpers import BRIEF, found, manifest, write

HOST = "kind: host-config\nstrategies:\n  {module}: {strategy}\n"


def test_the_scheduler_manifest_opting_in_is_an_error_at_allow_sleep(tmp_path):
    text = manifest("plugin_activation", f"allow_sleep: true\nsleep_brief: {BRIEF}\n")
    assert found([write(tmp_path, "pa.yaml", text)]) == [("controller-sleepable", "pa.yaml", 5)]


def test_the_scheduler_manifest_opting_in_without_a_brief_is_reported_beside_the_missing_brief(tmp_path):
    codes = [code for code, _, _ in found([write(tmp_path, "pa.yaml", manifest("plugin_activation", "allow_sleep: true\n"))])]
    assert sorted(codes) == ["allow-sleep-without-brief", "controller-sleepable"]


@pytest.mark.parametrize("extra", ["allow_sleep: false\n", "", "allow_sleep: null\n"])
def test_a_scheduler_manifest_that_does_not_opt_in_is_not_reported(tmp_path, extra):
    codes = [code for code, _, _ in found([write(tmp_path, "pa.yaml", manifest("plugin_activation", extra))])]
    assert "controller-sleepable" not in codes


def test_another_plugin_opting_in_is_not_reported(tmp_path):
    assert found([write(tmp_path, "w.yaml", manifest("weather", f"allow_sleep: true\nsleep_brief: {BRIEF}\n"))]) == []


def test_an_allow_sleep_strategy_on_the_scheduler_is_an_error_even_without_its_manifest(tmp_path):
    host = write(tmp_path, "host.yaml", HOST.format(module="plugin_activation", strategy="allow_sleep"))
    assert found([host]) == [("controller-sleepable", "host.yaml", 3)]


def test_with_the_protected_manifest_in_the_set_it_is_reported_once_not_also_as_strategy_on_protected(tmp_path):
    paths = [write(tmp_path, "pa.yaml", manifest("plugin_activation", "allow_sleep: false\n")),
             write(tmp_path, "host.yaml", HOST.format(module="plugin_activation", strategy="allow_sleep"))]
    assert found(paths) == [("controller-sleepable", "host.yaml", 3)]


@pytest.mark.parametrize("strategy", ["auto", "forbid_sleep"])
def test_other_strategies_on_the_scheduler_are_not_this_rule(tmp_path, strategy):
    host = write(tmp_path, "host.yaml", HOST.format(module="plugin_activation", strategy=strategy))
    assert "controller-sleepable" not in [code for code, _, _ in found([host])]


def test_the_rule_can_be_disabled_like_any_other(tmp_path):
    host = write(tmp_path, "host.yaml", HOST.format(module="plugin_activation", strategy="allow_sleep"))
    assert found([host], disable=("controller-sleepable",)) == []


def test_the_lint_reads_the_scheduler_module_the_reference_reads():
    # controller.scheduler_module reads semantics.yaml through the document loader (no PyYAML import).
    from conformance.validate.lint.controller import scheduler_module
    from reference_impl.semantics import load_semantics

    assert scheduler_module() == load_semantics().scheduler_module == "plugin_activation"

