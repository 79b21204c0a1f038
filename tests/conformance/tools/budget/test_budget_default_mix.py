"""pas budget on a plugin set of one's own: a default mix that wakes every sleeper, and a warning for foreign names."""

from __future__ import annotations

from conformance.cli.main import main
from conformance.tools.budget.measure import measure_budget
from conformance.tools.budget.mix import default_mix, sleepers
from conformance.tools.budget.tokenizer import estimate_tokenizer
from reference_impl.model import HostConfig, Manifest

BRIEF = "Does {0} things. Activate when the user asks about {0}."


def _write_set(folder, sleepy=("alpha", "beta", "gamma"), awake=("basic",)):
    folder.mkdir()
    for name in (*sleepy, *awake):
        opt_in = f"allow_sleep: true\nsleep_brief: {BRIEF.format(name)}\n" if name in sleepy else ""
        methods = "".join(f"  - {{name: {name}_{i}, kind: tool, description: Does step {i} of {name} with care.}}\n"
                          for i in range(6))
        (folder / f"{name}.yaml").write_text(f"name: {name}\nmodule_name: {name}\nversion: 1.0.0\n"
                                             f"description: The {name} plugin.\n{opt_in}methods:\n{methods}")
    return folder


def test_the_default_mix_activates_every_sleepable_plugin_of_the_set_and_nothing_else(tmp_path):
    plugins = _write_set(tmp_path / "plugins")
    budget = measure_budget(plugins=plugins, tokenizer=estimate_tokenizer())
    assert budget.ok and "default mix" in budget.script_source and len(budget.runs) >= 20
    assert {p.code for p in budget.problems} == set()
    activated = [line.split()[1] for line in default_mix(
        [Manifest.from_json({"name": n, "module_name": n, "version": "1.0.0", "description": "d",
                             "allow_sleep": True, "sleep_brief": BRIEF.format(n)}) for n in ("b", "a")],
        HostConfig(enabled=("a", "b"))).splitlines() if line.startswith("activate")]
    assert activated == ["a", "b"]
    assert sum(run.states.get("active", 0) for run in budget.runs) >= 3 * 2  # each sleeper shown for 2 runs
    assert budget.total("ceiling").tokens < budget.total("scheduled").tokens < budget.total("all_awake").tokens


def test_protected_disabled_and_controller_plugins_are_never_in_the_mix():
    def manifest(name, allow):
        return Manifest.from_json({"name": name, "module_name": name, "version": "1.0.0", "description": "d",
                                   "allow_sleep": allow, "sleep_brief": BRIEF.format(name)})
    set_ = [manifest("a", True), manifest("b", False), manifest("c", True), manifest("plugin_activation", True)]
    assert sleepers(set_, HostConfig(enabled=("a", "b", "c", "plugin_activation"), disabled=frozenset({"c"}))) == ["a"]


def test_a_script_naming_plugins_not_in_the_set_warns_at_its_line(tmp_path):
    plugins = _write_set(tmp_path / "plugins")
    budget = measure_budget("run\nactivate weather\nrun\nactivate alpha\nrun\n", plugins=plugins,
                            script_name="mix.pas", tokenizer=estimate_tokenizer())
    (problem,) = budget.problems
    assert (problem.code, problem.source.path, problem.source.line) == ("unknown-plugin", "mix.pas", 2)
    assert "'weather' is not in the plugin set" in problem.message and "overstated" in problem.message


def test_the_text_report_shows_all_awake_scheduled_and_ceiling(tmp_path, capsys):
    plugins = _write_set(tmp_path / "plugins")
    assert main(["budget", "--plugins", str(plugins), "--tokenizer", "estimate"]) == 0
    out = capsys.readouterr().out
    for needle in ("all awake: ", "scheduled: ", "ceiling:   ", "every sleepable plugin asleep", "default mix"):
        assert needle in out
