"""Attribution, measured: each single-bug fake is blamed on the requirement its bug breaks.

Every fake in tests/fakes with a ``Breaks: ID`` docstring line runs through the bundled suite
(tests/support/breaks.py); its failed scenarios must blame the named requirement and at most
two others. bench/attribution.py prints the same figures as a table.
"""

from __future__ import annotations

import pytest
from support import breaks
from support.fakes import FAKES

from conformance.suite.coverage import load_requirements

GROUPS = ("ACT-ELIG", "ACT-STATE", "ACT-SCHED", "ACT-COUNT", "ACT-ARG", "ACT-ACTIVATE", "ACT-EXTEND", "ACT-ORDER",
          "ACT-ADMIN", "TXT-BLOCK", "TXT-REPLY", "HOST-", "DISC-SCOPE", "DISC-LOAD", "DISC-ORDER", "DISC-CALL",
          "DISC-TRIM", "DISC-SEARCH", "DISC-CAT")
# Fakes whose bug shows through rules other than the named one; each reason says why.
OVER_BLAMED = {
    "broken_counts_activation_run": "the wrong stored counter is reported by later replies too: already_active "
                                    "(ACT-ACTIVATE-3) and extended totals (ACT-EXTEND-3) in scenarios about them",
    "broken_decrements_sleeping": "count-only-active-plugins-count-down blames ACT-COUNT-4, but the negative "
                                  "counters it keeps are read by every later call on that plugin (the reference "
                                  "no longer ignores counters below 1, which it never stores), and they outlive "
                                  "restarts, admin changes and the scheduler switch: scenarios about activate, "
                                  "extend and those (ACT-ACTIVATE-7, ACT-EXTEND-3/5, ACT-ARG-1, ACT-COUNT-5..7, "
                                  "ACT-ADMIN-3, ACT-SCHED-3) fail on it too",
}


@pytest.fixture(scope="module")
def measured() -> dict[str, object]:
    return {row.fake: row for row in breaks.measure()}


def test_every_requirement_group_has_a_single_bug_fake():
    named = breaks.single_bug_fakes().values()
    assert [g for g in GROUPS if not any(r.startswith(g) for r in named)] == []


def test_every_named_requirement_exists():
    assert set(breaks.single_bug_fakes().values()) <= set(load_requirements()[0])


def test_every_broken_fake_that_fails_rather_than_errors_names_its_requirement():
    fakes = [*FAKES.glob("*broken_*.py"), *FAKES.glob("single_*.py")]
    unnamed = [p.stem for p in fakes if "(hostile)" not in p.read_text(encoding="utf-8") and not breaks.named_requirement(p)]
    assert unnamed == []


def test_a_fake_without_a_breaks_line_is_not_measured(tmp_path):
    path = tmp_path / "broken_x.py"
    path.write_text('"""Broken on purpose.\n\nbreaks ACT-COUNT-2 somewhere\n"""\n', encoding="utf-8")
    assert breaks.named_requirement(path) is None
    path.write_text('"""Broken on purpose.\n\nBreaks: ACT-COUNT-2\n"""\n', encoding="utf-8")
    assert breaks.named_requirement(path) == "ACT-COUNT-2"


def test_the_rule_fails_when_the_named_requirement_is_missing_or_too_many_others_are_blamed():
    row = breaks.Attribution
    assert row(fake="f", named="A-B-1", blamed=("A-B-1", "A-B-2", "A-B-3"), failed=()).ok
    assert not row(fake="f", named="A-B-1", blamed=("A-B-2",), failed=()).ok
    assert not row(fake="f", named="A-B-1", blamed=("A-B-1", "A-B-2", "A-B-3", "A-B-4"), failed=()).ok


@pytest.mark.parametrize("fake", [
    pytest.param(f, marks=pytest.mark.xfail(strict=True, reason=OVER_BLAMED[f])) if f in OVER_BLAMED else f
    for f in sorted(breaks.single_bug_fakes())])
def test_each_single_bug_fake_is_blamed_on_its_requirement_and_at_most_two_others(measured, fake):
    row = measured[fake]
    assert row.failed, f"{fake}: no scenario fails"
    assert row.named in row.blamed, f"{fake}: {row.named} not blamed; blamed {row.blamed}"
    assert len(row.others) <= breaks.MAX_OTHERS, f"{fake}: blamed {row.blamed}"
