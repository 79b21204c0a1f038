"""Eligibility: the four precedence rules on every combination of manifest and strategy, and the scheduler rule."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from support.refimpl_builders import SEMANTICS, plugin

from reference_impl.eligibility import deciding_requirement, is_sleep_eligible
from reference_impl.fast import eligibility_decider
from reference_impl.model import Manifest, Strategy

ALLOW_SLEEP = (True, False, None)
BRIEFS = {"empty": "", "spaces": "   ", "tab_newline": "\t\n", "text": "Checks the weather."}
STRATEGIES = tuple(Strategy)


def expected_eligibility(allow_sleep: bool | None, brief: str, strategy: Strategy) -> tuple[bool, str]:
    """design.md's precedence list, written out independently of spec/semantics.yaml."""
    has_brief = bool(brief.strip())
    blank = bool(brief) and not has_brief  # white space only: no brief (ACT-ELIG-6)
    if allow_sleep is False:
        return False, "ACT-ELIG-1"
    if strategy == "forbid_sleep":
        return False, "ACT-ELIG-2"
    if strategy == "allow_sleep":
        return has_brief, "ACT-ELIG-6" if blank else "ACT-ELIG-3"
    if allow_sleep is True and blank:
        return False, "ACT-ELIG-6"
    return (allow_sleep is True and has_brief), "ACT-ELIG-4"


COMBINATIONS = [
    pytest.param(allow, brief, strategy, id=f"{expected_eligibility(allow, brief, strategy)[1]}-"
                                            f"allow_sleep={allow}-brief={label}-strategy={strategy.value}")
    for allow, (label, brief), strategy in itertools.product(ALLOW_SLEEP, BRIEFS.items(), STRATEGIES)
]


@pytest.mark.parametrize(("allow_sleep", "brief", "strategy"), COMBINATIONS)
def test_eligibility_follows_the_four_precedence_rules(allow_sleep, brief, strategy):
    """Covers: ACT-ELIG-1, ACT-ELIG-2, ACT-ELIG-3, ACT-ELIG-4, ACT-ELIG-6."""
    manifest = plugin("subject", allow_sleep=allow_sleep, sleep_brief=brief)
    eligible, requirement = expected_eligibility(allow_sleep, brief, strategy)
    assert is_sleep_eligible(manifest, strategy, SEMANTICS) is eligible
    assert deciding_requirement(manifest, strategy, SEMANTICS) == requirement


def test_every_combination_is_covered_exactly_once():
    """The grid above is the whole space: 3 allow_sleep values x 4 briefs x 3 strategies."""
    assert len(COMBINATIONS) == 36
    assert len({c.id for c in COMBINATIONS}) == 36


@pytest.mark.parametrize("strategy", STRATEGIES, ids=lambda s: s.value)
def test_a_protected_plugin_never_sleeps_whatever_the_strategy_ACT_ELIG_1(strategy):
    """Covers: ACT-ELIG-1 (even with a brief and the admin asking for sleep)."""
    assert not is_sleep_eligible(plugin("p", allow_sleep=False, sleep_brief="A brief."), strategy, SEMANTICS)


@pytest.mark.parametrize("strategy", STRATEGIES, ids=lambda s: s.value)
def test_an_absent_allow_sleep_is_read_exactly_as_null_ACT_ELIG_7(strategy):
    """Covers: ACT-ELIG-7."""
    base = {"name": "P", "module_name": "p", "version": "1.0.0", "description": "", "sleep_brief": "A brief."}
    absent = Manifest.from_json(base)
    null = Manifest.from_json({**base, "allow_sleep": None})
    assert absent == null
    assert is_sleep_eligible(absent, strategy, SEMANTICS) == is_sleep_eligible(null, strategy, SEMANTICS)


def test_a_brief_is_trimmed_before_it_is_judged_blank_ACT_ELIG_6():
    """Covers: ACT-ELIG-6: unicode whitespace counts as blank, text with spaces around does not."""
    assert not is_sleep_eligible(plugin("p", allow_sleep=True, sleep_brief="\u3000\u00a0 \r\n"), Strategy.AUTO, SEMANTICS)
    assert is_sleep_eligible(plugin("p", allow_sleep=True, sleep_brief="  x  "), Strategy.AUTO, SEMANTICS)


@pytest.mark.parametrize(("allow_sleep", "brief", "strategy"), COMBINATIONS)
def test_the_scheduler_plugin_never_sleeps_whatever_its_manifest_and_strategy_ACT_ELIG_8(allow_sleep, brief, strategy):
    """Covers: ACT-ELIG-8: the same 36 combinations, under the scheduler's module_name, all decided by ACT-ELIG-8."""
    manifest = plugin(SEMANTICS.scheduler_module, allow_sleep=allow_sleep, sleep_brief=brief)
    assert is_sleep_eligible(manifest, strategy, SEMANTICS) is False
    assert deciding_requirement(manifest, strategy, SEMANTICS) == "ACT-ELIG-8"


def test_the_scheduler_is_known_by_the_module_name_the_semantics_give_it():
    """ACT-ELIG-8 follows constants.scheduler_module, so a host that renames its scheduler keeps the rule."""
    renamed = replace(SEMANTICS, scheduler_module="my_scheduler")
    opted_in = {"allow_sleep": True, "sleep_brief": "Wakes plugins."}
    assert not is_sleep_eligible(plugin("my_scheduler", **opted_in), Strategy.AUTO, renamed)
    assert is_sleep_eligible(plugin("plugin_activation", **opted_in), Strategy.AUTO, renamed)
    decide = eligibility_decider(renamed)
    assert [decide(plugin(m, **opted_in), Strategy.ALLOW_SLEEP) for m in ("my_scheduler", "other")] == [False, True]
