"""The prompt-cache view of ``pas budget`` and the layouts it measures (orders, tool declarations, injected text)."""

from __future__ import annotations

import json

import pytest
from support.budget_helpers import manifest, sleeper_set, write_set

from conformance.cli.main import main
from conformance.tools.budget.cache import (
    ALL_AWAKE,
    APPENDED,
    REFERENCE,
    STABLE,
    CacheRun,
    Prices,
    cached_runs,
    shared_prefix,
)
from conformance.tools.budget.layout import Layout, Prompt, ordered
from conformance.tools.budget.measure import measure_budget
from conformance.tools.budget.tokenizer import estimate_tokenizer, load_tokenizer
from reference_impl.events import PluginView, RunObservation
from reference_impl.model import Manifest, PluginState

ESTIMATE = estimate_tokenizer()


def _view(name: str, state: PluginState, rounds: int | None = None) -> PluginView:
    awake = state is not PluginState.SLEEPING
    return PluginView(module_name=name, state=state, rounds_left=rounds, hint=False, brief_shown=not awake,
                      methods_shown=awake, injection_called=awake)


@pytest.mark.parametrize(("a", "b", "expected"), [("", "", 0), ("abc", "abd", 2), ("abc", "abc", 3), ("abc", "ab", 2),
                                                  ("x" * 1000 + "y", "x" * 1000 + "z", 1000), ("a", "b", 0)])
def test_shared_prefix_is_the_length_of_the_common_start(a, b, expected):
    assert shared_prefix(a, b) == expected


def test_a_run_is_cached_up_to_where_it_first_differs_from_any_earlier_run_and_never_past_its_cacheable_part():
    runs = cached_runs([Prompt(text="A" * 40, cacheable=40), Prompt(text="B" * 40, cacheable=40),
                        Prompt(text="A" * 20 + "C" * 20, cacheable=40), Prompt(text="B" * 40, cacheable=8)],
                       [0, 0, 4, 0], ESTIMATE)
    assert [(r.prompt, r.cached, r.replies) for r in runs] == [(10, 0, 0), (10, 0, 0), (10, 5, 4), (10, 2, 0)]


def test_a_runs_cost_is_cached_tokens_read_the_rest_written_and_replies_as_input():
    run = CacheRun(prompt=1_000_000, cached=600_000, replies=100_000)
    prices = Prices(input=3.0, cache_write=3.75, cache_read=0.30)
    assert run.cost(prices) == pytest.approx(0.6 * 0.30 + 0.4 * 3.75 + 0.1 * 3.0)
    assert run.cost_uncached(prices) == pytest.approx(1.1 * 3.0)


def test_the_stable_order_puts_active_blocks_last_and_appended_keeps_the_catalogue_whole():
    views = [_view("a", PluginState.ALWAYS_AWAKE), _view("b", PluginState.ACTIVE, 2), _view("c", PluginState.SLEEPING)]
    assert [v.module_name for v in ordered(views, "stable")] == ["a", "c", "b"]
    appended = ordered(views, "appended")
    assert [(v.module_name, v.state) for v in appended] == [
        ("a", PluginState.ALWAYS_AWAKE), ("b", PluginState.SLEEPING), ("c", PluginState.SLEEPING), ("b", PluginState.ACTIVE)]


def _manifests(*docs: dict) -> dict[str, Manifest]:
    return {doc["module_name"]: Manifest.from_json(doc) for doc in docs}


def test_declarations_are_one_json_line_per_shown_method_using_the_tools_own_name():
    doc = manifest("srv", sleeps=True, methods=2)
    doc["methods"][0]["x-mcp-name"] = "srv-0"
    layout = Layout(_manifests(doc), {"srv": doc}, declarations=True)
    text = layout.run(RunObservation(plugins=(_view("srv", PluginState.ALWAYS_AWAKE),))).text
    lines = text.splitlines()[-2:]
    assert [json.loads(line)["name"] for line in lines] == ["srv-0", "srv_1"]
    assert json.loads(lines[0]) == {"name": "srv-0", "description": doc["methods"][0]["description"],
                                    "input_schema": doc["methods"][0]["parameters"]}
    assert "* srv_1" not in text  # the method list is replaced, not repeated


def test_static_injected_text_is_counted_and_other_injections_end_the_cacheable_prefix():
    static = {**manifest("core", sleeps=False), "injects_prompt": True, "x-nekro-injected-text": "Be kind & brief."}
    dynamic = {**manifest("alive", sleeps=False), "injects_prompt": True}
    layout = Layout(_manifests(static, dynamic), {"core": static, "alive": dynamic})
    prompt = layout.run(RunObservation(plugins=(_view("alive", PluginState.ALWAYS_AWAKE),
                                                _view("core", PluginState.ALWAYS_AWAKE))))
    assert '<plugin_runtime_context name="Core" module_name="core">\nBe kind &amp; brief.\n</plugin_runtime_context>' \
        in prompt.text
    assert "[prompt injected by" not in prompt.text
    # the dynamic injection of 'alive' comes first, right after the blocks: a cached prefix ends there
    assert prompt.cacheable == prompt.text.index("\n\n<plugin_runtime_context")
    alone = Layout(_manifests(static), {"core": static}).run(RunObservation(plugins=(_view("core", PluginState.ALWAYS_AWAKE),)))
    assert alone.cacheable == len(alone.text)


def test_the_budgets_cache_view_reads_every_awake_run_after_the_first_from_the_cache(tmp_path):
    plugins, host = sleeper_set(tmp_path)
    budget = measure_budget("run\nrun team\nrun\nactivate alpha 2\nrun\nrun\nrun\n", plugins=plugins, host=host,
                            tokenizer=ESTIMATE, prices=Prices())
    view = budget.cache
    assert view is not None and set(view.sides) == {ALL_AWAKE, REFERENCE, STABLE, APPENDED}
    awake = view.sides[ALL_AWAKE]
    assert awake[0].cached == 0 and all(r.cached == r.prompt for r in awake[1:])
    assert [r.prompt + r.replies for r in view.sides[REFERENCE]] == [r.scheduled.tokens for r in budget.runs]
    # the run after the activation: the appended layout keeps the whole catalogue cached, ACT-ORDER-1 less of it
    assert view.sides[APPENDED][3].cached > view.sides[REFERENCE][3].cached
    assert view.cost(ALL_AWAKE) < view.cost_uncached(ALL_AWAKE)
    assert budget.to_json()["cache"]["sides"][ALL_AWAKE]["cached"] == view.total(ALL_AWAKE, "cached")


def test_without_prices_there_is_no_cache_view(tmp_path):
    plugins, host = sleeper_set(tmp_path)
    assert measure_budget("run\n", plugins=plugins, host=host, tokenizer=ESTIMATE).cache is None


def test_pas_budget_cache_prints_the_view_and_prices_imply_it(tmp_path, capsys):
    plugins, host = sleeper_set(tmp_path)
    assert main(["budget", "--plugins", str(plugins), "--host", str(host), "--tokenizer", "estimate", "--cache"]) == 0
    out = capsys.readouterr().out
    assert "prompt cache:" in out and "input 3.00, cache write 3.75, cache read 0.30" in out
    assert "scheduled, catalogue kept + active appended" in out and "with the cache, scheduling (" in out
    assert main(["budget", "--plugins", str(plugins), "--host", str(host), "--tokenizer", "estimate",
                 "--price-cache-read", "0.5", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["cache"]["prices"] == {"input": 3.0, "cache_write": 3.75, "cache_read": 0.5}


def test_declarations_count_the_schemas_so_all_awake_grows(tmp_path):
    plugins, _ = write_set(tmp_path, [manifest("srv", sleeps=True, methods=3)])
    plain = measure_budget("run\n", plugins=plugins, tokenizer=load_tokenizer("estimate"))
    declared = measure_budget("run\n", plugins=plugins, tokenizer=load_tokenizer("estimate"), declarations=True)
    assert declared.runs[0].all_awake.tokens > plain.runs[0].all_awake.tokens
    assert declared.to_json()["text"] == "reference+declarations"
