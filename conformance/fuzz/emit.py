"""Writing a disagreement as a ready-to-commit scenario file.

Every step carries the reference's full observation as its expectation, so the file passes
on the reference and fails on the implementation that disagreed. The document is dumped
in a stable, readable key order, then checked before anything is written: against the
scenario schema, by loading it back (the same plugins, host config and events), and by
running it on the reference, which must pass.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from conformance.documents.excerpt import excerpt_json
from conformance.fuzz.case import MAIN, Case, action_of, describe
from conformance.fuzz.compare import Disagreement, Verdict, expectation, reference_observations
from conformance.fuzz.covers import derive_covers
from reference_impl.engine import Engine
from reference_impl.events import OMITTED, Activate, Event, Extend, SetScheduler, SetStrategy, StartRun
from reference_impl.frozen import thaw
from reference_impl.model import HostConfig, Profile
from reference_impl.problems import Problem

_TITLE_MAX = 160


@dataclass(frozen=True, slots=True, kw_only=True)
class Provenance:
    """Where a finding comes from: the implementation, how it was invoked, and the seed."""

    name: str  # the implementation's own name (hello), or the --impl value
    impl: str  # the --impl value
    seed: int
    text: bool  # whether text was compared (the implementation claims the text profile)
    original_steps: int = 0  # steps before shrinking


class _Dumper(yaml.SafeDumper):
    """yaml.SafeDumper, writing multi-line strings as literal blocks."""


# YAML 1.1 line breaks besides \n and \r: PyYAML's literal and plain styles lose a leading one
# (a brief of "\x85\u2029..." came back without its NEL), its double-quoted style escapes them.
_UNICODE_BREAKS = frozenset("\x85\u2028\u2029")


def _str(dumper: yaml.SafeDumper, value: str) -> Any:
    if _UNICODE_BREAKS.intersection(value):
        style: str | None = '"'
    else:
        style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def dump(doc: Mapping[str, Any]) -> str:
    """The YAML text of a scenario document, keys in the order given."""
    return yaml.dump(dict(doc), Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=None,
                     width=200)


def _action_value(event: Event, adapter: str | None = None) -> Any:
    """The value under the step's action key, as a scenario file writes it; ``adapter`` when it must be named."""
    if isinstance(event, StartRun):
        if adapter is not None:
            return {"conversation": event.conversation, "adapter": adapter}
        return None if event.conversation == MAIN else event.conversation
    if isinstance(event, (Activate, Extend)):
        call: dict[str, Any] = {"module_name": event.module_name}
        if event.rounds is not OMITTED:
            call["rounds"] = thaw(event.rounds)
        if event.conversation != MAIN:
            call["conversation"] = event.conversation
        if adapter is not None:
            call["adapter"] = adapter
        return call
    if isinstance(event, SetStrategy):
        return {"module_name": event.module_name, "strategy": thaw(event.strategy)}
    if isinstance(event, SetScheduler):
        return event.enabled
    return getattr(event, "module_name", None)  # enable / disable; restart: null


def host_document(host: HostConfig) -> dict[str, Any]:
    """The scenario ``host`` mapping: ``enabled`` always (its default differs), the rest when set."""
    doc: dict[str, Any] = {"enabled": list(host.enabled)}
    if host.disabled:
        doc["disabled"] = sorted(host.disabled)
    if host.strategies:
        doc["strategies"] = {m: s.value for m, s in sorted(host.strategies.items())}
    if not host.scheduler_enabled:
        doc["scheduler_enabled"] = False
    return doc


def headline(found: Disagreement) -> str:
    """One line about the first difference: ``/plugins/alpha/rounds_left: expected 3, got 2``."""
    if found.verdict is Verdict.ERRORED:
        return f"errored: {found.reason}"
    first = found.mismatches[0]
    actual = first.to_json()["actual"]
    return f"{first.where}: expected {excerpt_json(first.expected, 40)}, got {excerpt_json(actual, 40)}"


def _title(found: Disagreement, provenance: Provenance) -> str:
    where = "at start" if found.index is None else f"at step {found.index} ({describe(found.event)})"
    if found.verdict is Verdict.ERRORED:
        title = f"{provenance.name} errors {where}: {found.reason}"
    else:
        title = f"{provenance.name} differs from the reference {where}: {headline(found)}"
    return title if len(title) <= _TITLE_MAX else title[: _TITLE_MAX - 3] + "..."


def _description(case: Case, found: Disagreement, provenance: Provenance) -> str:
    shrunk = f", shrunk from {provenance.original_steps} steps" if provenance.original_steps > len(case.events) else ""
    lines = [f"Found by `pas fuzz --impl {provenance.impl} --seed {provenance.seed}`{shrunk}. Every expectation is "
             "the reference's own observation, so this scenario passes on the reference and fails on "
             f"{provenance.name}."]
    if found.verdict is Verdict.ERRORED:
        lines.append(f"The implementation errored: {found.reason}" + (f" ({found.detail})" if found.detail else ""))
    else:
        lines += [f"{m.where}: expected {excerpt_json(m.expected, 40)}, got {excerpt_json(m.to_json()['actual'], 40)}"
                  for m in found.mismatches]
    return "\n".join(lines)


def _host_before(case: Case, index: int | None) -> HostConfig:
    reference = Engine(text=False)
    reference.start(case.plugins, case.host)
    for event in case.events[: index or 0]:
        reference.apply(event)
    return reference.state.host


def scenario_document(case: Case, found: Disagreement, provenance: Provenance) -> dict[str, Any]:
    """The scenario document reproducing ``found``: ``case`` with the reference's full expectations."""
    covers = derive_covers(case, found, _host_before(case, found.index))
    observations = reference_observations(case, text=provenance.text)
    adapters = case.written_adapters() or (None,) * len(case.events)  # unwritable: check_document says so
    steps = []
    for index, (event, observed, adapter) in enumerate(zip(case.events, observations, adapters)):
        step: dict[str, Any] = {action_of(event): _action_value(event, adapter)}
        if index == found.index or (found.index is None and index == 0):
            step["note"] = f"{provenance.name}: {headline(found)}"
            step["covers"] = list(covers)
        step.update(expectation(event, observed, text=provenance.text))
        steps.append(step)
    text_only = found.verdict is Verdict.FAILED and all(m.field == "text" for m in found.mismatches)
    doc: dict[str, Any] = {
        "id": f"fuzz-{case.digest}",
        "title": _title(found, provenance),
        "description": _description(case, found, provenance),
        "source": f"pas fuzz --impl {provenance.impl} --seed {provenance.seed}",
        "covers": list(covers),
    }
    if text_only:
        doc["profiles"] = [Profile.ACTIVATION.value, Profile.TEXT.value]
    doc["plugins"] = [m.to_json() for m in case.plugins]
    doc["host"] = host_document(case.host)
    if case.conversations:
        doc["conversations"] = {c: {"adapter": a} for c, a in case.conversations.items()}
    doc["steps"] = steps
    return doc


def check_document(text: str, case: Case, *, path: str, text_profile: bool) -> list[Problem]:
    """Problems with a dumped scenario: schema, loading it back, and passing on the reference."""
    from conformance.adapters.inprocess import reference_adapter
    from conformance.documents.loader import parse_documents
    from conformance.suite.runner import run_scenario
    from conformance.suite.scenario import parse_scenario

    docs, problems = parse_documents(text, path)
    if problems or len(docs) != 1:
        return problems or [Problem(code="fuzz-emit", message="expected one YAML document", pointer="")]
    scenario, problems = parse_scenario(docs[0])
    if scenario is None:
        return problems
    loaded = (scenario.plugins, scenario.host, tuple(s.event for s in scenario.steps))
    if loaded != (case.plugins, case.host, case.events):
        return [Problem(code="fuzz-emit", pointer="", message="the scenario does not load back as the fuzz case")]
    profiles = (Profile.ACTIVATION, Profile.TEXT) if text_profile else (Profile.ACTIVATION,)
    result = run_scenario(reference_adapter(), scenario, profiles=profiles)
    if result.outcome != "passed":
        return [Problem(code="fuzz-emit", pointer="", message=f"the scenario {result.outcome} on the reference")]
    return []


def write_scenario(doc: Mapping[str, Any], case: Case, out_dir: Path | str, *,
                   text_profile: bool) -> tuple[Path | None, list[Problem]]:
    """Check the document and write it as ``<out_dir>/<id>.yaml``: (path, []) or (None, problems).

    A problem here is a bug in the fuzzer, never in the implementation; an unwritable
    directory is reported as a problem too.
    """
    path = Path(out_dir) / f"{doc['id']}.yaml"
    text = dump(doc)
    problems = check_document(text, case, path=str(path), text_profile=text_profile)
    if problems:
        return None, problems
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        return None, [Problem(code="io-error", pointer="", message=f"cannot write {path}: {error.strerror or error}")]
    return path, []
