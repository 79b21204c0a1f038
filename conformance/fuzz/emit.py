"""Writing a disagreement as a ready-to-commit scenario file.

Every step carries the reference's full observation as its expectation, so the file passes
on the reference and fails on the implementation that disagreed. Each event is written by the
step table (conformance.documents.step_table), the same rows the scenario loader reads it back
with, so the file is not reloaded to compare: tests/conformance/documents/test_step_table.py and
tests/conformance/fuzz prove the round trip. Before anything is written the document is checked
for what a user relies on: it is a valid scenario (schema, host-step rules), and its expectations
pass on the reference, as its description says.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from conformance.documents.excerpt import excerpt_json
from conformance.documents.loader import YamlDocument, parse_documents
from conformance.documents.step_form import Unwritable
from conformance.fuzz.case import Case, describe
from conformance.fuzz.compare import Disagreement, Verdict, expectation, reference_observations, step_from
from conformance.fuzz.covers import derive_covers
from conformance.suite.scenario import Scenario, check_scenario, parse_scenario
from reference_impl.disclosure_options import Options
from reference_impl.engine import Engine
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
    after: int = 0  # cases of a sequence finding that run before this one (its folder's earlier files)


@dataclass(frozen=True, slots=True, kw_only=True)
class Earlier:
    """A case of a sequence finding that runs before the disagreeing one, and agrees with the reference alone.

    ``position`` counts from 1; ``total`` is the number of cases in the sequence, the disagreeing
    one included; ``covers`` are the finding's.
    """

    position: int
    total: int
    covers: tuple[str, ...]


class _Dumper(yaml.SafeDumper):
    """yaml.SafeDumper, writing multi-line strings as literal blocks."""


# YAML 1.1 line breaks besides \n and \r: PyYAML's literal and plain styles lose a leading one
# (a brief of "\x85\u2029..." came back without its NEL), its double-quoted style escapes them.
_UNICODE_BREAKS = frozenset("\x85\u2028\u2029")


# PyYAML decides whether a plain string needs quotes by YAML 1.1; PAS reads by the YAML 1.2 core
# schema, where "0E0", "1e5" or "0o17" are numbers. A plain scalar starting otherwise is a string in both.
_MAY_BE_A_NUMBER_OR_WORD = re.compile(r"^[-+.0-9~nNtTfF]")


def _reads_back_as_itself(value: str) -> bool:
    """Whether PAS's loader reads ``value``, written plain, as this very string."""
    if not _MAY_BE_A_NUMBER_OR_WORD.match(value):
        return True
    docs, problems = parse_documents(value, "<scalar>")
    return not problems and len(docs) == 1 and docs[0].value == value


def _str(dumper: yaml.SafeDumper, value: str) -> Any:
    if _UNICODE_BREAKS.intersection(value):
        style: str | None = '"'
    elif "\n" in value:
        style = "|"
    else:
        style = None if _reads_back_as_itself(value) else "'"
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def dump(doc: Mapping[str, Any]) -> str:
    """The YAML text of a scenario document, keys in the order given."""
    return yaml.dump(dict(doc), Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=None,
                     width=200)


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


def title(found: Disagreement | Earlier, provenance: Provenance) -> str:
    """The scenario title of a finding: who differs from the reference, at which step, and how."""
    if isinstance(found, Earlier):
        title = (f"{provenance.name}: case {found.position} of {found.total} of a sequence that disagrees only "
                 "when run in order; this case agrees with the reference")
        return title if len(title) <= _TITLE_MAX else title[: _TITLE_MAX - 3] + "..."
    where = "at start" if found.index is None else f"at step {found.index} ({describe(found.event)})"
    if provenance.after:
        where += f" after {provenance.after} earlier case{'s' if provenance.after > 1 else ''}"
    if found.verdict is Verdict.ERRORED:
        title = f"{provenance.name} errors {where}: {found.reason}"
    else:
        title = f"{provenance.name} differs from the reference {where}: {headline(found)}"
    return title if len(title) <= _TITLE_MAX else title[: _TITLE_MAX - 3] + "..."


def _found_by(case: Any, provenance: Provenance) -> str:
    shrunk = f", shrunk from {provenance.original_steps} steps" if provenance.original_steps > len(case.events) else ""
    return f"Found by `pas fuzz --impl {provenance.impl} --seed {provenance.seed}`{shrunk}."


def description(case: Any, found: Disagreement | Earlier, provenance: Provenance) -> str:
    """The scenario description of a finding: how it was found, and every difference.

    ``case`` is a case of any kind (its ``events`` are counted).
    """
    name = provenance.name
    if isinstance(found, Earlier):
        return (f"{_found_by(case, provenance)} Every expectation is the reference's own observation. This case "
                f"agrees with the reference and with {name} on its own; it is run before case {found.total} of its "
                f"folder, which then disagrees: {name} keeps state from one case to the next. Run the folder's "
                "scenarios in order in one process (pas run --scenario FOLDER runs them in name order).")
    if provenance.after:
        earlier = "the scenario before it" if provenance.after == 1 else f"the {provenance.after} scenarios before it"
        fails = (f"fails on {name} when {earlier} in its folder first run in the same process (pas run --scenario "
                 f"FOLDER runs them in name order); alone it passes on {name} too: {name} keeps state from one case "
                 "to the next.")
    else:
        fails = f"fails on {name}."
    lines = [f"{_found_by(case, provenance)} Every expectation is the reference's own observation, so this scenario "
             f"passes on the reference and {fails}"]
    if isinstance(found, Disagreement) and found.verdict is Verdict.ERRORED:
        lines.append(f"The implementation errored: {found.reason}" + (f" ({found.detail})" if found.detail else ""))
    else:
        lines += [f"{m.where}: expected {excerpt_json(m.expected, 40)}, got {excerpt_json(m.to_json()['actual'], 40)}"
                  for m in found.mismatches]
    return "\n".join(lines)


def heading(case: Any, found: Disagreement | Earlier, provenance: Provenance, covers: tuple[str, ...]) -> dict[str, Any]:
    """The ``id``, ``title``, ``description``, ``source`` and ``covers`` of a finding's scenario document."""
    return {"id": f"fuzz-{case.digest}", "title": title(found, provenance),
            "description": description(case, found, provenance),
            "source": f"pas fuzz --impl {provenance.impl} --seed {provenance.seed}", "covers": list(covers)}


def noted_step(found: Disagreement | Earlier) -> int | None:
    """The index of the step that carries the finding's note (the differing one); None for an earlier case."""
    if isinstance(found, Earlier):
        return None
    return 0 if found.index is None else found.index


def step_documents(events: Sequence[Any], observations: Sequence[Mapping[str, Any]], written: Sequence[tuple[str, Any]],
                   found: Disagreement | Earlier, provenance: Provenance, covers: Sequence[str],
                   expect: Callable[[Any, Mapping[str, Any]], dict[str, Any]]) -> list[dict[str, Any]]:
    """Each step as the step table writes it with ``expect(event, observed)``'s expectations; the differing
    step also carries the finding's note and covers."""
    noted = noted_step(found)
    steps = []
    for index, (event, observed, (key, value)) in enumerate(zip(events, observations, written)):
        step: dict[str, Any] = {key: value}
        if index == noted and isinstance(found, Disagreement):
            step["note"] = f"{provenance.name}: {headline(found)}"
            step["covers"] = list(covers)
        step.update(expect(event, observed))
        steps.append(step)
    return steps


def _host_before(case: Case, index: int | None) -> HostConfig:
    reference = Engine(text=False)
    reference.start(case.plugins, case.host)
    for event in case.events[: index or 0]:
        reference.apply(event)
    return reference.state.host


def scenario_document(case: Case, found: Disagreement | Earlier, provenance: Provenance) -> dict[str, Any]:
    """The scenario document reproducing ``found``: ``case`` with the reference's full expectations.

    ``found`` is an :class:`Earlier` for a case of a sequence finding written only to run before
    the disagreeing one. Raises Unwritable when no scenario file can say ``case`` (a conversation
    going back to no adapter); the generator never makes such a case and the minimiser never returns one.
    """
    written = case.written_steps()
    if written is None:
        raise Unwritable("a conversation of the case goes back to having no adapter, which a scenario cannot say")
    if isinstance(found, Earlier):
        covers = found.covers
    else:
        covers = derive_covers(case, found, _host_before(case, found.index))
    steps = step_documents(case.events, reference_observations(case, text=provenance.text), written, found, provenance,
                           covers, lambda event, observed: expectation(event, observed, text=provenance.text))
    text_only = (isinstance(found, Disagreement) and found.verdict is Verdict.FAILED
                 and all(m.field == "text" for m in found.mismatches))
    doc = heading(case, found, provenance, covers)
    if text_only or (isinstance(found, Earlier) and provenance.text):
        doc["profiles"] = [Profile.ACTIVATION.value, Profile.TEXT.value]
    doc["plugins"] = [m.to_json() for m in case.plugins]
    doc["host"] = host_document(case.host)
    if case.conversations:
        doc["conversations"] = {c: {"adapter": a} for c, a in case.conversations.items()}
    doc["steps"] = steps
    return doc


def _scenario(doc: Mapping[str, Any], case: Case, path: str) -> Scenario:
    """The scenario ``doc`` says: the case's plugins, host and events with the document's expectations."""
    steps = tuple(step_from(index, event, raw) for index, (event, raw) in enumerate(zip(case.events, doc["steps"])))
    return Scenario(id=doc["id"], title=doc["title"], covers=tuple(doc["covers"]), steps=steps,
                    profiles=tuple(doc.get("profiles", (Profile.ACTIVATION,))), plugins=case.plugins, host=case.host,
                    path=path)


def check_document(doc: Mapping[str, Any], case: Case, *, path: str, text_profile: bool) -> list[Problem]:
    """Problems with a scenario document before it is written: not a valid scenario, or failing on the reference.

    The document is not read back: its steps are the step table's writing of ``case.events``,
    which the loader reads back as the same events (proven by the tests, not at run time).
    """
    from conformance.adapters.inprocess import reference_adapter
    from conformance.suite.runner import run_scenario

    problems = check_scenario(YamlDocument(value=dict(doc), path=path))
    if problems:
        return problems
    profiles = (Profile.ACTIVATION, Profile.TEXT) if text_profile else (Profile.ACTIVATION,)
    result = run_scenario(reference_adapter(), _scenario(doc, case, path), profiles=profiles)
    if result.outcome != "passed":
        return [Problem(code="fuzz-emit", pointer="", message=f"the scenario {result.outcome} on the reference")]
    return []


def check_on_reference(doc: Mapping[str, Any], *, path: str, profiles: Sequence[str],
                       declared: Options | None = None) -> list[Problem]:
    """Problems with a finding's document before it is written: not a valid scenario, or not passing on the
    reference (under ``declared``, the disclosure options the case ran under) with ``profiles`` claimed."""
    from conformance.adapters.inprocess import reference_adapter
    from conformance.suite.runner import run_scenario

    problems = check_scenario(YamlDocument(value=dict(doc), path=path))
    if problems:
        return problems
    scenario, problems = parse_scenario(YamlDocument(value=dict(doc), path=path))
    assert scenario is not None  # checked just above
    result = run_scenario(reference_adapter(declared), scenario, profiles=profiles, declared=declared)
    if result.outcome != "passed":
        return [Problem(code="fuzz-emit", pointer="", message=f"the scenario {result.outcome} on the reference "
                        f"({result.reason or (result.failure and result.failure.mismatches[:1])})")]
    return []


def write_scenario(doc: Mapping[str, Any], case: Case, out_dir: Path | str, *,
                   text_profile: bool) -> tuple[Path | None, list[Problem]]:
    """Check the document and write it as ``<out_dir>/<id>.yaml``: (path, []) or (None, problems).

    A problem here is a bug in the fuzzer, never in the implementation; an unwritable
    directory is reported as a problem too.
    """
    path = Path(out_dir) / f"{doc['id']}.yaml"
    return write_checked(doc, path, check_document(doc, case, path=str(path), text_profile=text_profile))


def write_checked(doc: Mapping[str, Any], path: Path, problems: list[Problem]) -> tuple[Path | None, list[Problem]]:
    """Write ``doc`` to ``path`` unless its check found ``problems``: (path, []) or (None, problems)."""
    if problems:
        return None, problems
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dump(doc), encoding="utf-8")
    except OSError as error:
        return None, [Problem(code="io-error", pointer="", message=f"cannot write {path}: {error.strerror or error}")]
    return path, []
