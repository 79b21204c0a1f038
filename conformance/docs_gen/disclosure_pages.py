"""What a disclosure scenario's catalogue entry says besides its steps: its tools, the options it needs, its answers.

Used by :mod:`conformance.docs_gen.scenario_pages` for scenarios of the ``disclosure`` profile,
which have a catalogue of tools instead of plugins, a ``requires`` instead of a host config,
and answers to the model's calls among their expectations.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from conformance.docs_gen._md import code, table, value
from conformance.docs_gen.i18n import t
from conformance.suite.scenario import Scenario
from reference_impl.disclosure_options import closest_meeting

# closest_meeting walks all 960 combinations (~13 ms of CPU); the catalogue asks it for each disclosure scenario
# in each language, 90 asks of about 30 distinct requires (frozen, hashable).
_closest_meeting = functools.cache(closest_meeting)


def _values(values: Any) -> str:
    return t(" or ").join(code(str(v).lower() if isinstance(v, bool) else str(v)) for v in values)


def catalogue_lines(scenario: Scenario) -> list[str]:
    """The options the scenario needs (or that it runs under every declaration), then its catalogue as a table."""
    if scenario.requires:
        needs = "; ".join(f"{code(option)} {_values(values)}" for option, values in scenario.requires.items())
        lines = [t("Applies when the implementation declares: ") + needs + t(".")]
        nearest = _closest_meeting(scenario.requires)
        if nearest is not None:
            lines[0] += " " + t("The reference runs it with {options}.").format(
                options=code(f"pas serve-reference --disclosure '{nearest.to_text()}'") if nearest.to_text()
                else t("its default options"))
    else:
        lines = [t("Applies under every declaration.")]
    rows = [[code(tool.name), t("yes") if tool.always_visible else t("no"), tool.description] for tool in scenario.tools]
    return [*lines, "", *table([t("Tool"), t("Always visible"), t("Description")], rows)]


def _answer_text(answer: Mapping[str, Any]) -> str:
    if "results" in answer:
        return ", ".join(f"{code(r['name'])} **{r['outcome']}**" for r in answer["results"])
    if "listed" in answer:
        return t("lists ") + ", ".join(code(i["name"]) + (t(" (loaded)") if i["loaded"] else "") for i in answer["listed"])
    if "found" in answer or "loaded" in answer:
        found = t("found ") + (", ".join(code(n) for n in answer.get("found", ())) or t("none"))
        loaded = t(", loaded ") + (", ".join(code(n) for n in answer["loaded"]) or t("none")) if "loaded" in answer else ""
        return found + loaded
    if "outcome" in answer:
        return f"{code(answer['name'])} **{answer['outcome']}**" if "name" in answer else f"**{answer['outcome']}**"
    return value(dict(answer))


def answers_text(answers: Any) -> str:
    """A model step's expected answers, one phrase per call: ``answers: weather loaded; clock executed``."""
    return t("answers: ") + "; ".join(_answer_text(answer) for answer in answers)
