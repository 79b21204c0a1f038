"""Can a plugin sleep? The precedence table of spec/semantics.yaml, as one pure function.

The table is part of the ``semantics`` the caller passes: nothing here reads a file.
"""

from __future__ import annotations

from reference_impl.model import Manifest, Strategy
from reference_impl.semantics import Semantics, TableRow, first_match


def brief_fact(manifest: Manifest) -> str:
    """``present``, ``blank`` (white space only: no brief, ACT-ELIG-6) or ``empty`` (nothing at all)."""
    if manifest.brief:
        return "present"
    return "blank" if manifest.sleep_brief else "empty"


def eligibility_facts(manifest: Manifest, strategy: Strategy, semantics: Semantics) -> dict[str, object]:
    """The facts the eligibility table tests (ACT-ELIG-6: a blank brief counts as none).

    ``scheduler`` says whether the plugin is the scheduler plugin itself (ACT-ELIG-8), known by
    its module_name (``semantics.scheduler_module``), not by anything its manifest declares.
    """
    return {
        "scheduler": manifest.module_name == semantics.scheduler_module,
        "allow_sleep": manifest.allow_sleep,
        "strategy": strategy.value,
        "brief": brief_fact(manifest),
    }


def is_sleep_eligible(manifest: Manifest, strategy: Strategy, semantics: Semantics) -> bool:
    """Whether ``manifest`` under the admin ``strategy`` may sleep (ACT-ELIG-1..4, ACT-ELIG-6, ACT-ELIG-8)."""
    return bool(first_match(semantics.eligibility, eligibility_facts(manifest, strategy, semantics)).result)


def deciding_row(manifest: Manifest, strategy: Strategy, semantics: Semantics) -> TableRow:
    """The row of the eligibility table that decides whether ``manifest`` may sleep."""
    return first_match(semantics.eligibility, eligibility_facts(manifest, strategy, semantics))


def deciding_requirement(manifest: Manifest, strategy: Strategy, semantics: Semantics) -> str:
    """The requirement ID of the table row that decides eligibility (for explanations)."""
    return deciding_row(manifest, strategy, semantics).requirement
