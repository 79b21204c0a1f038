"""Writing a sequence finding: cases that disagree only when run one after the other.

When every case of the sequence is a host case over the same plugins and host config, the
cases joined are one host scenario (each begins with ``host_load``), written as any host
finding. Otherwise the finding is a folder ``fuzz-seq-<hash>/`` holding one scenario per case,
named ``01-fuzz-<hash>.yaml``, ``02-...`` in the order they must run (``pas run --scenario
FOLDER`` runs a folder's files in name order, in one process), and a ``README.md`` listing
them. Each file is an ordinary scenario that passes on the reference: the earlier ones agree
with the implementation too, the last one fails on it only after them. Every file is checked
as the single-case emitters check theirs before anything is written.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from conformance.fuzz.case import Case, describe
from conformance.fuzz.compare import Disagreement, Verdict
from conformance.fuzz.disclosure_case import DisclosureCase
from conformance.fuzz.disclosure_emit import check_disclosure_document, disclosure_document
from conformance.fuzz.emit import Earlier, Provenance, check_document, headline, scenario_document, write_checked
from conformance.suite.attribution_table import load_table
from reference_impl.problems import Problem

_PREFIXES = {"activation": ("ACT-", "TXT-"), "host": ("HOST-",), "disclosure": ("DISC-",)}


def _kind(case: Any) -> str:
    if isinstance(case, DisclosureCase):
        return "disclosure"
    return "activation" if isinstance(case, Case) else "host"


def document(case: Any, found: Disagreement | Earlier, provenance: Provenance) -> dict[str, Any]:
    """The scenario document of one case of any kind (raises Unwritable as the kind's emitter does)."""
    kind = _kind(case)
    if kind == "disclosure":
        return disclosure_document(case, found, provenance)
    if kind == "activation":
        return scenario_document(case, found, provenance)
    from conformance.fuzz.host_emit import host_scenario_document

    return host_scenario_document(case, found, provenance)


def check(doc: dict[str, Any], case: Any, path: Path, *, text: bool) -> list[Problem]:
    """The kind's checks of a document before it is written: a valid scenario that passes on the reference."""
    kind = _kind(case)
    if kind == "disclosure":
        return check_disclosure_document(doc, case, path=str(path))
    if kind == "activation":
        return check_document(doc, case, path=str(path), text_profile=text)
    from conformance.fuzz.host_emit import check_host_document

    return check_host_document(doc, case, path=str(path))


def covers_for(case: Any, covers: Sequence[str]) -> tuple[str, ...]:
    """What an earlier case of a sequence covers: the finding's requirements of its own profile, else its fallback.

    A scenario covers requirements of the profiles it runs under; an activation case run before
    a host case that disagrees covers what its first step touches.
    """
    prefixes = _PREFIXES[_kind(case)]
    own = tuple(c for c in covers if c.startswith(prefixes))
    if own:
        return own
    if isinstance(case, DisclosureCase):
        return ("DISC-CAT-1",)  # the catalogue every disclosure case begins with, whatever the declaration
    from conformance.documents.step_table import key_of

    return load_table().fallback(key_of(case.events[0]))[:2] if case.events else ("HOST-LOAD-1",)


def _digest(cases: Sequence[Any]) -> str:
    return hashlib.sha256(" ".join(c.digest for c in cases).encode()).hexdigest()[:10]


def _readme(names: Sequence[str], found: Disagreement, provenance: Provenance, impl: str) -> str:
    where = "start" if found.index is None else f"step {found.index} ({describe(found.event)})"
    what = f"errored: {found.reason}" if found.verdict is Verdict.ERRORED else headline(found)
    lines = [
        "# A disagreement that shows only after earlier cases", "",
        f"`pas fuzz --impl {impl} --seed {provenance.seed}` found that {provenance.name} disagrees with the "
        f"reference in the last of these {len(names)} cases only when the ones before it run first, in the same "
        "process; replayed alone, from a fresh implementation, every case agrees. Each case begins with `start` "
        f"(or `host-load`, or `disclosure-start`), which must forget everything before it: {provenance.name} "
        "keeps state from one case to the next.", "",
    ]
    lines += [f"{n}. `{name}`: agrees" for n, name in enumerate(names[:-1], 1)]
    lines.append(f"{len(names)}. `{names[-1]}`: differs at {where}: {what}")
    lines += ["", "Reproduce (the files run in name order, in one process):", "",
              f"    pas run --impl '{impl}' --scenario {Path(names[0]).parent.name or '.'}", ""]
    return "\n".join(lines)


def write_sequence(before: Sequence[Any], case: Any, found: Disagreement, provenance: Provenance,
                   out_dir: Path | str) -> tuple[Path | None, list[Problem]]:
    """Write the sequence as one scenario when it can be one, else as a folder: (path, []) or (None, problems).

    Raises Unwritable when a case cannot be said by a scenario file (the minimiser never returns one).
    """
    from conformance.fuzz.host_emit import joined

    one = joined(before, case, found)
    if one is not None:
        whole, at = one
        loads = len(before)
        why = (f"The difference shows only after the {loads} load{'s' if loads > 1 else ''} before it in this scenario: "
               f"replayed from its own load in a fresh implementation, {provenance.name} agrees. Each host_load must "
               f"forget everything before it; {provenance.name} keeps state across it.")
        return write_case(whole, at, provenance, out_dir, why=why)
    folder = Path(out_dir) / f"fuzz-seq-{_digest([*before, case])}"
    total = len(before) + 1
    last = document(case, found, replace(provenance, after=len(before)))
    docs = [document(c, Earlier(position=n, total=total, covers=covers_for(c, last["covers"])), provenance)
            for n, c in enumerate(before, 1)]
    paths = [folder / f"{n:02d}-{doc['id']}.yaml" for n, doc in enumerate([*docs, last], 1)]
    for doc, each, path in zip([*docs, last], [*before, case], paths):
        problems = check(doc, each, path, text=provenance.text)
        if problems:
            return None, problems
    for doc, path in zip([*docs, last], paths):
        written, problems = write_checked(doc, path, [])
        if written is None:
            return None, problems
    names = [f"{folder.name}/{path.name}" for path in paths]
    try:
        (folder / "README.md").write_text(_readme(names, found, provenance, provenance.impl), encoding="utf-8")
    except OSError as error:
        return None, [Problem(code="io-error", pointer="", message=f"cannot write {folder}/README.md: {error}")]
    return folder, []


def write_case(case: Any, found: Disagreement, provenance: Provenance, out_dir: Path | str, *,
               why: str = "") -> tuple[Path | None, list[Problem]]:
    """Check and write one case of any kind as ``<out_dir>/<id>.yaml``, ``why`` added to its description.

    Returns (path, []) or (None, problems); raises Unwritable as :func:`document` does.
    """
    doc = document(case, found, provenance)
    if why:
        doc["description"] += "\n" + why
    path = Path(out_dir) / f"{doc['id']}.yaml"
    return write_checked(doc, path, check(doc, case, path, text=provenance.text))
