"""measure_budget: every run with scheduling against the same run with every plugin awake."""

from __future__ import annotations

import pytest
from support.budget_helpers import manifest, sleeper_set, write_set

from conformance.tools.budget.measure import TYPICAL_MIX, Size, measure_budget, parameters_text, saving
from conformance.tools.budget.tokenizer import load_tokenizer
from conformance.tools.simulate.simulation import simulate
from reference_impl.events import CallObservation, RunObservation

ESTIMATE = load_tokenizer("estimate")


def _budget(script, plugins=None, host=None, **kwargs):
    budget = measure_budget(script, plugins=plugins, host=host, tokenizer=ESTIMATE, **kwargs)
    assert budget.ok, budget.problems
    return budget


def test_sleepers_make_the_scheduled_prompt_shorter_than_every_plugin_awake(tmp_path):
    plugins, host = sleeper_set(tmp_path)
    budget = _budget("run; run; run", plugins, host)
    for run in budget.runs:
        assert run.scheduled.chars < run.all_awake.chars
        assert run.scheduled.tokens < run.all_awake.tokens
        assert run.states == {"always_awake": 2, "active": 0, "sleeping": 4}
    assert budget.saving > 0


def test_the_saving_is_computed_from_the_token_totals(tmp_path):
    plugins, host = sleeper_set(tmp_path)
    budget = _budget("run; activate alpha; run; run", plugins, host)
    scheduled = sum((r.scheduled for r in budget.runs), Size())
    awake = sum((r.all_awake for r in budget.runs), Size())
    assert budget.total("scheduled") == scheduled and budget.total("all_awake") == awake
    assert budget.saving == pytest.approx(1 - scheduled.tokens / awake.tokens)
    assert budget.to_json()["saving"] == round(budget.saving, 4)


def test_with_the_scheduler_off_nothing_is_saved_and_calls_cost_nothing(tmp_path):
    plugins, host = sleeper_set(tmp_path, scheduler=False)
    budget = _budget("run; activate alpha; run; extend beta; run", plugins, host)
    assert [r.scheduled for r in budget.runs] == [r.all_awake for r in budget.runs]
    assert budget.total("replies") == Size()
    assert budget.saving == 0 and budget.saving_ceiling == 0


def test_switching_the_scheduler_off_mid_script_stops_the_saving_from_then_on(tmp_path):
    plugins, host = sleeper_set(tmp_path)
    budget = _budget("run; scheduler off; run", plugins, host)
    assert budget.runs[0].saving > 0
    assert budget.runs[1].saving == 0


def test_a_set_with_no_sleep_eligible_plugin_saves_nothing(tmp_path):
    docs = [manifest("core", sleeps=False, builtin=True), manifest("chat", sleeps=None), manifest("tools", sleeps=False)]
    plugins, _ = write_set(tmp_path, docs)
    budget = _budget("run; activate chat; run", plugins)
    assert all(r.states["sleeping"] == 0 for r in budget.runs)
    assert budget.total("scheduled").tokens - budget.total("replies").tokens == budget.total("all_awake").tokens
    assert budget.saving_ceiling == 0
    assert budget.saving <= 0  # the always_awake reply is all scheduling added


def test_an_activation_reply_is_counted_in_the_run_that_made_it(tmp_path):
    plugins, host = sleeper_set(tmp_path)
    script = "run; activate alpha; run"
    budget = _budget(script, plugins, host)
    steps = simulate(script, plugins=plugins, host=host, text=True).steps
    reply = next(s.observation.text for s in steps if isinstance(s.observation, CallObservation))
    prompts = [s.observation.text for s in steps if isinstance(s.observation, RunObservation)]
    assert budget.runs[0].replies == Size(chars=len(reply), tokens=ESTIMATE.count(reply))
    assert budget.runs[0].scheduled.chars == len(prompts[0]) + len(reply)
    assert budget.runs[1].replies == Size() and budget.runs[1].scheduled.chars == len(prompts[1])
    assert budget.runs[1].states["active"] == 1


def test_replies_go_to_their_own_conversation_and_calls_before_its_first_run_to_that_run(tmp_path):
    plugins, host = sleeper_set(tmp_path)
    budget = _budget("activate alpha in b; run a; run b; activate beta in a", plugins, host)
    first_a, first_b = budget.runs
    assert first_b.conversation == "b" and first_b.replies.chars > 0 and first_b.states["active"] == 1
    assert first_a.conversation == "a" and first_a.replies.chars > 0


def test_the_ceiling_leaves_every_activation_out(tmp_path):
    plugins, host = sleeper_set(tmp_path)
    budget = _budget("run; activate alpha 5; run; run", plugins, host)
    assert all(r.ceiling.chars < r.scheduled.chars for r in budget.runs)
    assert budget.saving_ceiling > budget.saving


def test_parameters_add_each_shown_methods_schema_to_both_sides(tmp_path):
    plugins, host = sleeper_set(tmp_path)
    plain = _budget("run", plugins, host)
    with_parameters = _budget("run", plugins, host, include_parameters=True)
    (run_plain,), (run_params,) = plain.runs, with_parameters.runs
    added_awake = run_params.all_awake.chars - run_plain.all_awake.chars
    added_scheduled = run_params.scheduled.chars - run_plain.scheduled.chars
    assert added_awake > added_scheduled > 0  # sleepers' schemas are hidden
    assert with_parameters.to_json()["text"] == "reference+parameters"


def test_parameters_text_has_one_line_per_shown_method_with_parameters():
    from reference_impl.events import PluginView
    from reference_impl.model import Manifest, PluginState

    doc = manifest("alpha", sleeps=True, methods=3)
    manifests = {"alpha": Manifest.from_json(doc)}
    awake = PluginView(module_name="alpha", state=PluginState.ALWAYS_AWAKE, rounds_left=None, hint=False, brief_shown=False, methods_shown=True, injection_called=False)
    asleep = PluginView(module_name="alpha", state=PluginState.SLEEPING, rounds_left=None, hint=False, brief_shown=False,
                        methods_shown=False, injection_called=False)
    assert len(parameters_text(manifests, [awake]).splitlines()) == 3
    assert parameters_text(manifests, [asleep]) == ""


def test_the_default_is_the_typical_mix_on_the_bundled_examples():
    budget = measure_budget(tokenizer=ESTIMATE)
    script = TYPICAL_MIX.read_text(encoding="utf-8")
    runs = [line for line in script.splitlines() if line.split("#")[0].split()[:1] == ["run"]]
    assert budget.ok and len(budget.runs) == len(runs)
    assert {r.conversation for r in budget.runs} == {"family", "team"}
    assert budget.script_source == str(TYPICAL_MIX)


def test_a_script_without_a_run_is_a_problem():
    budget = measure_budget("activate weather", tokenizer=ESTIMATE)
    assert not budget.ok and [p.code for p in budget.script_problems] == ["no-run"]


def test_bad_input_is_returned_as_problems_not_raised(tmp_path):
    budget = measure_budget("run; fly", plugins=tmp_path / "missing", tokenizer=ESTIMATE)
    assert not budget.ok and {"path-not-found", "unknown-command"} <= {p.code for p in (*budget.problems, *budget.script_problems)}
    assert budget.runs == ()


def test_an_empty_baseline_saves_nothing():
    assert saving(Size(chars=5, tokens=3), Size()) == 0.0
    assert saving(Size(chars=10, tokens=10), Size(chars=10, tokens=40)) == pytest.approx(0.75)
