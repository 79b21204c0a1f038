"""The scenario catalogue: every scenario of the bundled suite, with its plugins and steps."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from conformance.docs_gen._md import code, header, link, one_line, requirement_links, table, value
from conformance.docs_gen.disclosure_pages import answers_text, catalogue_lines
from conformance.docs_gen.i18n import t
from conformance.documents.step_table import row_of
from conformance.suite.scenario import Scenario, Step
from reference_impl.eligibility import brief_fact, deciding_requirement, is_sleep_eligible
from reference_impl.frozen import thaw
from reference_impl.model import Manifest, Profile
from reference_impl.semantics import load_semantics

CATEGORIES = {
    "nekro_docs": "NekroAgent's documented examples", "eligibility": "Sleep eligibility",
    "states": "States and what the model sees", "counting": "Counting runs", "calls": "activate and extend",
    "admin": "Admin changes", "scheduler": "The scheduler switch", "conversations": "Conversations",
    "restart": "Restart", "order": "Ordering", "text": "Reference text", "transport": "Transport", "host": "Host profile",
    "disclosure": "Disclosure profile",
}
SPEC = "../specification.md"  # category pages live in generated/scenarios/
LISTED = 20  # a scenario with more plugins (a transport scenario's installation) lists only the first SHOWN
SHOWN = 3
#: The number of a scenario's first step. `pas run` names a failing step by its index in the file's
#: `steps` list ("step 2" is `/steps/2`, conformance/report/text.py), so the pages count from 0 too.
FIRST_STEP = 0
_VIEW_FLAGS = (("hint", "hint", "no hint"), ("brief_shown", "brief", "no brief"),
               ("methods_shown", "methods", "no methods"), ("injection_called", "injection", "no injection"))


def step_number(step: Step) -> int:
    """The number a step has on its scenario page: the one a failure report names it by."""
    return step.index + FIRST_STEP


def text_anchor(scenario: Scenario, step: Step) -> str:
    """The anchor of a step's expected text on its category page."""
    return f"{scenario.id}-step-{step_number(step)}-text"


def category_of(scenario: Scenario, suite_dir: Path) -> str:
    """The folder of the suite a scenario file lives in ('' for the suite's top level)."""
    try:
        relative = Path(scenario.path).resolve().relative_to(suite_dir.resolve())
    except ValueError:
        return ""
    return relative.parts[0] if len(relative.parts) > 1 else ""


def _category_title(name: str) -> str:
    return t(CATEGORIES[name]) if name in CATEGORIES else name.replace("_", " ").capitalize()


def view_text(expected: Any) -> str:
    """One plugin's expected view in a run, e.g. ``active · 3 left · hint``."""
    if expected == "absent":
        return t("*absent*")
    if not isinstance(expected, Mapping):
        return value(expected)
    parts = [f"**{expected['state']}**"] if "state" in expected else []
    if "rounds_left" in expected:
        left = expected["rounds_left"]
        parts.append(t("no rounds_left") if left is None else t("{n} left").format(n=left))
    parts += [t(yes) if expected[key] else t(no) for key, yes, no in _VIEW_FLAGS if key in expected]
    return " · ".join(parts) or t("shown")


class _Words:
    """The page's words for the step table's prose: translated text, inline code, JSON values."""

    t = staticmethod(t)
    code = staticmethod(code)
    value = staticmethod(value)


def step_text(step: Step) -> str:
    """What happens in a step, in words: its row's prose in the step table."""
    return row_of(step.event).prose(step.event, _Words())


def _event_text(event: Mapping[str, Any]) -> str:
    rest = [f"{k}={value(v)}" for k, v in event.items() if k not in ("event", "module_name")]
    name = f" {code(event['module_name'])}" if "module_name" in event else ""
    return f"{event['event']}{name}" + (f" ({', '.join(rest)})" if rest else "")


def _host_expectation_parts(step: Step) -> list[str]:
    expected = step.host
    if expected is None:
        return []
    parts = []
    if expected.events is not None:
        parts.append(t("events: ") + (" → ".join(_event_text(e) for e in expected.events) or t("none")))
    if expected.problems is not None:
        parts.append(t("problems: ") + (", ".join(value(dict(p)) for p in expected.problems) or t("none")))
    for key in ("load_order", "setup_order"):
        if getattr(expected, key) is not None:
            parts.append(t(f"{key.replace('_', ' ')}: ") + (" → ".join(code(m) for m in getattr(expected, key)) or t("none")))
    if expected.config is not None:
        parts.append(t("config ") + value(expected.config))
    if expected.provenance is not None:
        parts.append(t("layers: ") + ", ".join(f"{code(p)} {layer}" for p, layer in expected.provenance.items()))
    return parts


def _expectation_text(step: Step, scenario: Scenario) -> str:
    expect = step.expect
    parts = _host_expectation_parts(step)
    if step.action != "run":
        if "outcome" in expect:
            parts.append(f"**{expect['outcome']}**")
        if "rounds" in expect:
            parts.append(t("rounds ") + value(expect["rounds"]))
        if "ends_step" in expect:
            parts.append(t("ends the step") if expect["ends_step"] else t("does not end the step"))
        if "block" in expect:
            parts.append(t("no block") if expect["block"] is None else t("block: ") + view_text(expect["block"]))
    if step.answers is not None:
        parts.append(answers_text(step.answers))
    if step.shown is not None:
        parts.append(t("shown exactly: ") + (", ".join(code(m) for m in step.shown) or t("none")))
    if step.order is not None:
        parts.append(t("in order: ") + " → ".join(code(m) for m in step.order))
    if step.text is not None:
        checks = ([t("equals a fixed text")] if step.text.equals is not None else []) + (
            [t("contains {n} pieces").format(n=len(step.text.contains))] if step.text.contains else []) + (
            [t("lacks {n} pieces").format(n=len(step.text.not_contains))] if step.text.not_contains else [])
        parts.append(t("text ") + "; ".join(checks) + " — " + link(t("the exact text"), f"#{text_anchor(scenario, step)}"))
    if step.covers:
        parts.append(t("checks ") + requirement_links(step.covers, SPEC))
    if step.note:
        parts.append(f"*{one_line(step.note)}*")
    return "<br>".join(parts)


def _columns(scenario: Scenario) -> list[str]:
    if scenario.is_host or scenario.is_disclosure:  # host and disclosure steps have no per-plugin view
        return []
    expected = [key for step in scenario.steps if step.action == "run" for key in step.expect]
    names = [m.module_name for m in scenario.plugins] if len(scenario.plugins) <= LISTED else []
    names += [key for key in dict.fromkeys(expected) if key not in names]
    return names


def _listed(scenario: Scenario) -> tuple[list[Manifest], str]:
    """The plugins a page lists, and a line saying how many more a large installation has."""
    plugins = list(scenario.plugins)
    if len(plugins) <= LISTED:
        return plugins, ""
    more = t("… and {n} more plugins, up to {last}.").format(n=len(plugins) - SHOWN, last=code(plugins[-1].module_name))
    return plugins[:SHOWN], more


def _loaded(manifest: Manifest, scenario: Scenario) -> str:
    host = scenario.host
    if manifest.module_name in host.disabled:
        return t("disabled")
    words = t("built-in") if manifest.builtin else (t("enabled") if manifest.module_name in host.enabled else t("not enabled"))
    if manifest.support_adapter:
        words += t(" · adapters ") + ", ".join(code(a) for a in manifest.support_adapter)
    return words


def _eligibility(manifest: Manifest, scenario: Scenario) -> str:
    strategy = scenario.host.strategy_for(manifest.module_name)
    semantics = load_semantics()
    rule = deciding_requirement(manifest, strategy, semantics)
    decision = t("yes") if is_sleep_eligible(manifest, strategy, semantics) else t("no")
    return f"{decision} ({link(rule, f'{SPEC}#{rule}')})"


def _host_plugins_table(scenario: Scenario) -> list[str]:
    rows = [[code(m.module_name), t("yes") if m.builtin else t("no"), ", ".join(code(d) for d in m.dependencies),
             ", ".join(code(h) for h in m.hooks), _loaded(m, scenario), value(dict(m.config_defaults))]
            for m in scenario.plugins]
    lines = table([t("Plugin"), t("Built-in"), t("Depends on"), t("Hooks"), t("Loaded"), t("Config defaults")], rows)
    return lines + _config_schemas(scenario)


def _config_schemas(scenario: Scenario) -> list[str]:
    """Each plugin's config schema in full: what HOST-VAL-3 and HOST-VAL-4 check the merged configuration with."""
    lines: list[str] = []
    for manifest in scenario.plugins:
        if manifest.config_schema is None:
            continue
        schema = json.dumps(thaw(manifest.config_schema), indent=2, ensure_ascii=False)
        lines += [t("Config schema of {plugin}:").format(plugin=code(manifest.module_name)), "",
                  *_fence(schema, language="json"), ""]
    return lines


def _host_inputs(scenario: Scenario) -> list[str]:
    lines = []
    if scenario.host.config:
        lines.append(t("config file: ") + value({m: dict(c) for m, c in scenario.host.config.items()}))
    if scenario.environment:
        lines.append(t("environment: ") + ", ".join(f"`{k}={v}`" for k, v in scenario.environment.items()))
    if scenario.overrides:
        lines.append(t("command line: ") + ", ".join(code(f"--set {o}") for o in scenario.overrides))
    if scenario.behaviour.setup_fails:
        lines.append(t("setup fails: ") + ", ".join(code(m) for m in sorted(scenario.behaviour.setup_fails)))
    for module, hooks in sorted(scenario.behaviour.hook_raises.items()):
        lines.append(t("{plugin} raises in ").format(plugin=code(module)) + ", ".join(code(h) for h in sorted(hooks)))
    return ["- " + line for line in lines] + ([""] if lines else [])


def _plugins_table(scenario: Scenario) -> list[str]:
    if scenario.is_host:
        return _host_plugins_table(scenario)
    if scenario.is_disclosure:
        return catalogue_lines(scenario)
    listed, more = _listed(scenario)
    rows = [
        [code(m.module_name), value(m.allow_sleep), t(brief_fact(m)),
         code(scenario.host.strategy_for(m.module_name).value), _loaded(m, scenario), _eligibility(m, scenario)]
        for m in listed
    ]
    if not rows:
        return [t("No plugins are installed."), ""]
    lines = table([t("Plugin"), "allow_sleep", "sleep_brief", t("Strategy"), t("Loaded"), t("Sleep-eligible at start")], rows)
    return lines + ([more, ""] if more else [])


def _steps_table(scenario: Scenario) -> list[str]:
    columns = _columns(scenario)
    rows = []
    for step in scenario.steps:
        views = [view_text(step.expect[c]) if step.action == "run" and c in step.expect else "" for c in columns]
        rows.append([str(step_number(step)), step_text(step), *views, _expectation_text(step, scenario)])
    return table(["#", t("Step"), *(code(c) for c in columns), t("Expected")], rows)


def _fence(text: str, indent: str = "", language: str = "text") -> list[str]:
    """``text`` as a fenced code block, byte for byte (a fence longer than any backtick run in it)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    body = text[:-1] if text.endswith("\n") else text
    return [indent + fence + language, *(indent + line if line else "" for line in body.split("\n")), indent + fence]


def _bytes_note(text: str) -> str:
    """How long a text is and how it starts and ends: what a code block cannot show."""
    notes = [t("{n} characters").format(n=len(text))]
    if text.startswith("\n"):
        notes.append(t("starts with a line feed"))
    notes.append(t("ends with a line feed") if text.endswith("\n") else t("no line feed at the end"))
    return ", ".join(notes)


def _pieces(title: str, pieces: Sequence[str]) -> list[str]:
    """A list of text pieces: inline code when one line without outer white space, else a code block."""
    lines = [title, ""]
    for piece in pieces:
        if "\n" not in piece and piece == piece.strip() and piece:
            lines.append(f"- {code(piece)}")
        else:
            lines += [f"- {_bytes_note(piece)}:", "", *_fence(piece, "    ")]
        lines.append("")
    return lines


def _expected_texts(scenario: Scenario) -> list[str]:
    """Each step's text expectation in full, after the steps table: the exact bytes to produce."""
    lines: list[str] = []
    for step in scenario.steps:
        expected = step.text
        if expected is None:
            continue
        lines += [t("**Step {n}**, {what}: expected text").format(n=step_number(step), what=step_text(step)),
                  f"{{: #{text_anchor(scenario, step)} }}", ""]
        if expected.equals is not None:
            lines += [t("The text must be exactly this ({bytes}):").format(bytes=_bytes_note(expected.equals)), "",
                      *_fence(expected.equals), ""]
        if expected.contains:
            lines += _pieces(t("The text must contain each of these:"), expected.contains)
        if expected.not_contains:
            lines += _pieces(t("The text must not contain any of these:"), expected.not_contains)
    return lines


def scenario_section(scenario: Scenario) -> list[str]:
    """The catalogue entry of one scenario: anchor, what it covers, plugins, steps."""
    lines = [f"## {scenario.title} {{ #{scenario.id} }}", ""]
    facts = [f"**id** {code(scenario.id)}", t("**covers** ") + requirement_links(scenario.covers, SPEC)]
    if scenario.profiles != (Profile.ACTIVATION,):
        facts.append(t("**profiles** ") + ", ".join(code(p) for p in scenario.profiles))
    lines += [" · ".join(facts), ""]
    if scenario.description:
        lines += [one_line(scenario.description), ""]
    if scenario.split_writes:
        lines += [t("Transport: over stdio, every request of this scenario is written in pieces (`split_writes`)."), ""]
    host_notes = []
    if not scenario.host.scheduler_enabled:
        host_notes.append(t("the scheduler is **off** (`scheduler_enabled: false`)"))
    if set(scenario.host.enabled) - {m.module_name for m in scenario.plugins}:
        missing = sorted(set(scenario.host.enabled) - {m.module_name for m in scenario.plugins})
        host_notes.append(t("enabled but not installed: ") + ", ".join(code(m) for m in missing))
    if host_notes:
        lines += [t("Host: ") + "; ".join(host_notes) + t("."), ""]
    if scenario.is_host:
        lines += _host_inputs(scenario)
    return lines + _plugins_table(scenario) + _steps_table(scenario) + _expected_texts(scenario)


def _groups(scenarios: Sequence[Scenario], suite_dir: Path) -> dict[str, list[Scenario]]:
    groups: dict[str, list[Scenario]] = {}
    for scenario in scenarios:
        groups.setdefault(category_of(scenario, suite_dir) or "other", []).append(scenario)
    order = [c for c in CATEGORIES if c in groups] + sorted(c for c in groups if c not in CATEGORIES)
    return {c: sorted(groups[c], key=lambda s: s.id) for c in order}


def scenario_page_of(scenarios: Sequence[Scenario], suite_dir: Path) -> dict[str, str]:
    """Scenario id -> its catalogue page, relative to docs/generated/ (``scenarios/<category>.md``)."""
    return {s.id: f"scenarios/{category}.md" for category, group in _groups(scenarios, suite_dir).items() for s in group}


def scenario_catalogue(scenarios: Sequence[Scenario], suite_dir: Path) -> dict[str, str]:
    """The catalogue: an index of every scenario, and one page per suite folder (category).

    Returns page text by path relative to docs/generated/.
    """
    groups = _groups(scenarios, suite_dir)
    lines = header(t("Scenario catalogue"), "conformance/suite/scenarios/", intro=t(
        "The conformance suite: {count} scenarios in {categories} categories, each a script "
        "of events with the view or outcome it must produce. `pas run` drives any implementation "
        "through these very files; scenario ids are stable and never reused.").format(
            count=len(scenarios), categories=len(groups)))
    pages = {}
    for category, group in groups.items():
        lines += [f"## {link(_category_title(category), f'{category}.md')} {{ #category-{category} }}", ""]
        lines += table([t("Scenario"), t("What it shows"), t("Covers")], [
            [link(code(s.id), f"{category}.md#{s.id}"), s.title, requirement_links(s.covers, SPEC)] for s in group
        ])
        page = header(_category_title(category), f"conformance/suite/scenarios/{category}/", intro=t(
            _DISCLOSURE_INTRO if all(s.is_disclosure for s in group) else _INTRO).format(count=len(group),
                                                                                          first=FIRST_STEP))
        for scenario in group:
            page += scenario_section(scenario)
        pages[f"scenarios/{category}.md"] = "\n".join(page).rstrip() + "\n"
    pages["scenarios/index.md"] = "\n".join(lines).rstrip() + "\n"
    return pages


_INTRO = ("{count} scenarios. Steps are numbered from {first}, as `pas run` numbers them when it "
          "reports a failing step. A plugin column in a step table is the plugin's expected view "
          "in that run (empty: not checked); the last column is what the step must produce "
          "otherwise. Back to the [catalogue](index.md).")
_DISCLOSURE_INTRO = (
    "{count} scenarios. Steps are numbered from {first}, as `pas run` numbers them when it reports a "
    "failing step. Each scenario first sends its catalogue; it runs only on an implementation whose "
    "declared options meet what it applies to. The last column is what the step must produce: the "
    "catalogue tools the (next) model call shows, and the answers to the model's calls. Back to the "
    "[catalogue](index.md).")


def coverage_of(scenarios: Sequence[Scenario]) -> dict[str, tuple[str, ...]]:
    """Requirement ID -> ids of the scenarios that cover it (scenario-level or step-level), sorted."""
    found: dict[str, set[str]] = {}
    for scenario in scenarios:
        for requirement in scenario.requirements:
            found.setdefault(requirement, set()).add(scenario.id)
    return {requirement: tuple(sorted(ids)) for requirement, ids in found.items()}
