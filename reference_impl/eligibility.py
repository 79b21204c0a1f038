"""Can a plugin sleep? The precedence table of spec/semantics.yaml, as one pure function.

The table is part of the ``semantics`` the caller passes: nothing here reads a file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from reference_impl.model import Manifest, Strategy
from reference_impl.semantics import Semantics, first_match


def eligibility_facts(manifest: Manifest, strategy: Strategy, semantics: Semantics) -> dict[str, object]:
    """The facts the eligibility table tests (ACT-ELIG-6: a blank brief counts as none).

    ``scheduler`` says whether the plugin is the scheduler plugin itself (ACT-ELIG-8), known by
    its module_name (``semantics.scheduler_module``), not by anything its manifest declares.
    """
    return {
        "scheduler": manifest.module_name == semantics.scheduler_module,
        "allow_sleep": manifest.allow_sleep,
        "strategy": strategy.value,
        "brief": "present" if manifest.brief else "blank",
    }


def is_sleep_eligible(manifest: Manifest, strategy: Strategy, semantics: Semantics) -> bool:
    """Whether ``manifest`` under the admin ``strategy`` may sleep (ACT-ELIG-1..4, ACT-ELIG-8)."""
    return bool(first_match(semantics.eligibility, eligibility_facts(manifest, strategy, semantics)).result)


def deciding_requirement(manifest: Manifest, strategy: Strategy, semantics: Semantics) -> str:
    """The requirement ID of the table row that decides eligibility (for explanations)."""
    return first_match(semantics.eligibility, eligibility_facts(manifest, strategy, semantics)).requirement


def eligibility_decider(semantics: Semantics) -> Callable[[Manifest, Strategy], bool]:
    """``is_sleep_eligible`` that walks the table once per distinct combination of facts.

    For recomputing many plugins at once (a host config change with thousands installed).
    """
    decided: dict[tuple[object, ...], bool] = {}

    def decide(manifest: Manifest, strategy: Strategy) -> bool:
        # The inputs of eligibility_facts: equal keys give equal facts.
        key = (manifest.module_name == semantics.scheduler_module, manifest.allow_sleep, strategy, not manifest.brief)
        if key not in decided:
            facts = eligibility_facts(manifest, strategy, semantics)
            decided[key] = bool(first_match(semantics.eligibility, facts).result)
        return decided[key]

    return decide


def sleep_eligible_names(manifests: Iterable[Manifest], strategy: Strategy, semantics: Semantics) -> frozenset[str]:
    """The module_names of ``manifests`` that may sleep when each has the admin ``strategy``.

    Per catalogue under ``auto``, this is what a host config change leaves alone: only the
    plugins the config names a strategy for need deciding again.
    """
    decide = eligibility_decider(semantics)
    return frozenset(m.module_name for m in manifests if decide(m, strategy))
