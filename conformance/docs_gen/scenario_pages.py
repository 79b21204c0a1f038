"""The scenario catalogue: every scenario of the bundled suite, with its plugins and steps."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from conformance.docs_gen._md import code, header, link, one_line, requirement_links, table, value
from conformance.suite.scenario import DEFAULT_CONVERSATION, Scenario, Step
from reference_impl.eligibility import deciding_requirement, is_sleep_eligible
from reference_impl.semantics import load_semantics
from reference_impl.events import OMITTED
from reference_impl.model import Manifest, Profile

CATEGORIES = {
    "nekro_docs": "NekroAgent's documented examples", "eligibility": "Sleep eligibility",
    "states": "States and what the model sees", "counting": "Counting runs", "calls": "activate and extend",
    "admin": "Admin changes", "scheduler": "The scheduler switch", "conversations": "Conversations",
    "restart": "Restart", "order": "Ordering", "text": "Reference text", "host": "Host profile",
}
SPEC = "../specification.md"  # category pages live in generated/scenarios/
_VIEW_FLAGS = (("hint", "hint", "no hint"), ("brief_shown", "brief", "no brief"),
               ("methods_shown", "methods", "no methods"), ("injection_called", "injection", "no injection"))


def category_of(scenario: Scenario, suite_dir: Path) -> str:
    """The folder of the suite a scenario file lives in ('' for the suite's top level)."""
    try:
        relative = Path(scenario.path).resolve().relative_to(suite_dir.resolve())
    except ValueError:
        return ""
    return relative.parts[0] if len(relative.parts) > 1 else ""


def _category_title(name: str) -> str:
    return CATEGORIES.get(name) or name.replace("_", " ").capitalize()


def view_text(expected: Any) -> str:
    """One plugin's expected view in a run, e.g. ``active · 3 left · hint``."""
    if expected == "absent":
        return "*absent*"
    if not isinstance(expected, Mapping):
        return value(expected)
    parts = [f"**{expected['state']}**"] if "state" in expected else []
    if "rounds_left" in expected:
        left = expected["rounds_left"]
        parts.append("no rounds_left" if left is None else f"{left} left")
    parts += [yes if expected[key] else no for key, yes, no in _VIEW_FLAGS if key in expected]
    return " · ".join(parts) or "shown"


def _call_text(step: Step, name: str) -> str:
    event = step.event
    args = [code(event.module_name)]
    if event.rounds is not OMITTED:
        args.append(f"rounds={value(event.rounds)}")
    where = f" in `{event.conversation}`" if event.conversation != DEFAULT_CONVERSATION else ""
    return f"{name}({', '.join(args)}){where}"


def _host_step_text(step: Step) -> str:
    event = step.event
    if step.action == "host_dispatch":
        where = f" in `{event.conversation}`" if event.conversation else ""
        return f"host: dispatch {code(event.hook)}{where}"
    if step.action == "host_open_conversation":
        return f"host: open conversation {code(event.conversation)}"
    if step.action in ("host_reload", "host_read_config"):
        verb = "reload" if step.action == "host_reload" else "read the config of"
        return f"host: {verb} {code(event.module_name)}"
    return "host: " + step.action.removeprefix("host_")


def step_text(step: Step) -> str:
    """What happens in a step, in words."""
    event = step.event
    if step.is_host:
        return _host_step_text(step)
    if step.action == "run":
        where = f" in `{event.conversation}`" if event.conversation != DEFAULT_CONVERSATION else ""
        adapter = f" (adapter `{event.adapter}`)" if getattr(event, "adapter", None) else ""
        return f"run{where}{adapter}"
    if step.action in ("activate", "extend"):
        return _call_text(step, "activate_plugin" if step.action == "activate" else "extend_plugin_activation")
    if step.action == "set_strategy":
        return f"admin: strategy of {code(event.module_name)} → {value(event.strategy)}"
    if step.action in ("enable", "disable"):
        return f"admin: {step.action} {code(event.module_name)}"
    if step.action == "set_scheduler":
        return f"admin: scheduler {'on' if event.enabled else 'off'}"
    return "host restart"


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
        parts.append("events: " + (" → ".join(_event_text(e) for e in expected.events) or "none"))
    if expected.problems is not None:
        parts.append("problems: " + (", ".join(value(dict(p)) for p in expected.problems) or "none"))
    for key in ("load_order", "setup_order"):
        if getattr(expected, key) is not None:
            parts.append(f"{key.replace('_', ' ')}: " + (" → ".join(code(m) for m in getattr(expected, key)) or "none"))
    if expected.config is not None:
        parts.append(f"config {value(expected.config)}")
    if expected.provenance is not None:
        parts.append("layers: " + ", ".join(f"{code(p)} {layer}" for p, layer in expected.provenance.items()))
    return parts


def _expectation_text(step: Step) -> str:
    expect = step.expect
    parts = _host_expectation_parts(step)
    if step.action != "run":
        if "outcome" in expect:
            parts.append(f"**{expect['outcome']}**")
        if "rounds" in expect:
            parts.append(f"rounds {value(expect['rounds'])}")
        if "ends_step" in expect:
            parts.append("ends the step" if expect["ends_step"] else "does not end the step")
        if "block" in expect:
            parts.append("no block" if expect["block"] is None else f"block: {view_text(expect['block'])}")
    if step.shown is not None:
        parts.append("shown exactly: " + (", ".join(code(m) for m in step.shown) or "none"))
    if step.order is not None:
        parts.append("in order: " + " → ".join(code(m) for m in step.order))
    if step.text is not None:
        checks = (["equals a fixed text"] if step.text.equals is not None else []) + [
            f"contains {code(s)}" for s in step.text.contains] + [f"lacks {code(s)}" for s in step.text.not_contains]
        parts.append("text " + "; ".join(checks))
    if step.covers:
        parts.append("checks " + requirement_links(step.covers, SPEC))
    if step.note:
        parts.append(f"*{one_line(step.note)}*")
    return "<br>".join(parts)


def _columns(scenario: Scenario) -> list[str]:
    if scenario.is_host:  # host steps have no per-plugin view
        return []
    names = [m.module_name for m in scenario.plugins]
    for step in scenario.steps:
        if step.action == "run":
            names += [key for key in step.expect if key not in names]
    return names


def _loaded(manifest: Manifest, scenario: Scenario) -> str:
    host = scenario.host
    if manifest.module_name in host.disabled:
        return "disabled"
    words = "built-in" if manifest.builtin else ("enabled" if manifest.module_name in host.enabled else "not enabled")
    if manifest.support_adapter:
        words += " · adapters " + ", ".join(code(a) for a in manifest.support_adapter)
    return words


def _eligibility(manifest: Manifest, scenario: Scenario) -> str:
    strategy = scenario.host.strategy_for(manifest.module_name)
    semantics = load_semantics()
    rule = deciding_requirement(manifest, strategy, semantics)
    decision = "yes" if is_sleep_eligible(manifest, strategy, semantics) else "no"
    return f"{decision} ({link(rule, f'{SPEC}#{rule}')})"


def _host_plugins_table(scenario: Scenario) -> list[str]:
    rows = [[code(m.module_name), "yes" if m.builtin else "no", ", ".join(code(d) for d in m.dependencies),
             ", ".join(code(h) for h in m.hooks), _loaded(m, scenario), value(dict(m.config_defaults))]
            for m in scenario.plugins]
    return table(["Plugin", "Built-in", "Depends on", "Hooks", "Loaded", "Config defaults"], rows)


def _host_inputs(scenario: Scenario) -> list[str]:
    lines = []
    if scenario.host.config:
        lines.append("config file: " + value({m: dict(c) for m, c in scenario.host.config.items()}))
    if scenario.environment:
        lines.append("environment: " + ", ".join(f"`{k}={v}`" for k, v in scenario.environment.items()))
    if scenario.overrides:
        lines.append("command line: " + ", ".join(code(f"--set {o}") for o in scenario.overrides))
    if scenario.behaviour.setup_fails:
        lines.append("setup fails: " + ", ".join(code(m) for m in sorted(scenario.behaviour.setup_fails)))
    for module, hooks in sorted(scenario.behaviour.hook_raises.items()):
        lines.append(f"{code(module)} raises in " + ", ".join(code(h) for h in sorted(hooks)))
    return ["- " + line for line in lines] + ([""] if lines else [])


def _plugins_table(scenario: Scenario) -> list[str]:
    if scenario.is_host:
        return _host_plugins_table(scenario)
    rows = [
        [code(m.module_name), value(m.allow_sleep), "present" if m.brief else "blank",
         code(scenario.host.strategy_for(m.module_name).value), _loaded(m, scenario), _eligibility(m, scenario)]
        for m in scenario.plugins
    ]
    if not rows:
        return ["No plugins are installed.", ""]
    return table(["Plugin", "allow_sleep", "sleep_brief", "Strategy", "Loaded", "Sleep-eligible at start"], rows)


def _steps_table(scenario: Scenario) -> list[str]:
    columns = _columns(scenario)
    rows = []
    for number, step in enumerate(scenario.steps, 1):
        views = [view_text(step.expect[c]) if step.action == "run" and c in step.expect else "" for c in columns]
        rows.append([str(number), step_text(step), *views, _expectation_text(step)])
    return table(["#", "Step", *(code(c) for c in columns), "Expected"], rows)


def scenario_section(scenario: Scenario) -> list[str]:
    """The catalogue entry of one scenario: anchor, what it covers, plugins, steps."""
    lines = [f"## {scenario.title} {{ #{scenario.id} }}", ""]
    facts = [f"**id** {code(scenario.id)}", "**covers** " + requirement_links(scenario.covers, SPEC)]
    if scenario.profiles != (Profile.ACTIVATION,):
        facts.append("**profiles** " + ", ".join(code(p) for p in scenario.profiles))
    lines += [" · ".join(facts), ""]
    if scenario.description:
        lines += [one_line(scenario.description), ""]
    host_notes = []
    if not scenario.host.scheduler_enabled:
        host_notes.append("the scheduler is **off** (`scheduler_enabled: false`)")
    if set(scenario.host.enabled) - {m.module_name for m in scenario.plugins}:
        missing = sorted(set(scenario.host.enabled) - {m.module_name for m in scenario.plugins})
        host_notes.append("enabled but not installed: " + ", ".join(code(m) for m in missing))
    if host_notes:
        lines += ["Host: " + "; ".join(host_notes) + ".", ""]
    if scenario.is_host:
        lines += _host_inputs(scenario)
    return lines + _plugins_table(scenario) + _steps_table(scenario)


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
    lines = header("Scenario catalogue", "conformance/suite/scenarios/", intro=(
        f"The conformance suite: {len(scenarios)} scenarios in {len(groups)} categories, each a script "
        "of events with the view or outcome it must produce. `pas run` drives any implementation "
        "through these very files; scenario ids are stable and never reused."))
    pages = {}
    for category, group in groups.items():
        lines += [f"## {link(_category_title(category), f'{category}.md')} {{ #category-{category} }}", ""]
        lines += table(["Scenario", "What it shows", "Covers"], [
            [link(code(s.id), f"{category}.md#{s.id}"), s.title, requirement_links(s.covers, SPEC)] for s in group
        ])
        page = header(_category_title(category), f"conformance/suite/scenarios/{category}/", intro=(
            f"{len(group)} scenarios. A plugin column in a step table is the plugin's expected view "
            "in that run (empty: not checked); the last column is what the step must produce "
            "otherwise. Back to the [catalogue](index.md)."))
        for scenario in group:
            page += scenario_section(scenario)
        pages[f"scenarios/{category}.md"] = "\n".join(page).rstrip() + "\n"
    pages["scenarios/index.md"] = "\n".join(lines).rstrip() + "\n"
    return pages


def coverage_of(scenarios: Sequence[Scenario]) -> dict[str, tuple[str, ...]]:
    """Requirement ID -> ids of the scenarios that cover it (scenario-level or step-level), sorted."""
    found: dict[str, set[str]] = {}
    for scenario in scenarios:
        for requirement in scenario.requirements:
            found.setdefault(requirement, set()).add(scenario.id)
    return {requirement: tuple(sorted(ids)) for requirement, ids in found.items()}
