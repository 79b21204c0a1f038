"""Can a plugin sleep? The precedence table of spec/semantics.yaml, as one pure function.

The table is part of the ``semantics`` the caller passes: nothing here reads a file.
"""

from __future__ import annotations

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
