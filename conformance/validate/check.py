"""``pas validate``: the one loader (paths -> documents -> kind -> schema problems), then semantic rules.

Loading is :mod:`conformance.documents.sets`, as for every command that reads documents: files
named on the command line (or matched by a glob) are *explicit*, and a document in them that is
not a PAS document is reported (``unrecognized-document``, info); files found by walking a
directory are *discovered*, and such documents are skipped silently, so a repository can be
validated as a whole. On top of the loading this module adds suppression comments, the
semantic rules of each document and of the whole set, and worker processes for large sets.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field

from conformance.documents.kinds import CHECKED_KINDS, Kind
from conformance.documents.sets import INPUT_CODES, LoadedFile, LoadSettings, load_file, load_text
from conformance.documents.walk import Target, collect_targets
from conformance.validate import lint
from conformance.validate.lint.facts import HostFacts, ManifestFacts, host_facts, manifest_facts
from conformance.validate.suppress import Config, Suppressions, apply_suppressions, parse_suppressions
from reference_impl.problems import Problem, Severity

_UNRECOGNIZED_HINT = "skipped, use --kind to check it anyway"
_PARALLEL_FROM = 20_000  # files; below this, worker processes cost more CPU than they save wall time (bench/README.md)


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """How to validate: the config (rules, caps, suppressions), a forced kind, worker processes."""

    config: Config = Config()
    kind: Kind | None = None
    jobs: int = 0  # 0: automatic

    @property
    def load(self) -> LoadSettings:
        """What the one loader needs of these settings."""
        return LoadSettings(kind=self.kind, limits=self.config.limits, unrecognized_hint=_UNRECOGNIZED_HINT)


@dataclass(frozen=True, slots=True, kw_only=True)
class FileResult:
    """Everything one file contributes: its problems and the summaries the set rules need."""

    path: str
    problems: tuple[Problem, ...] = ()
    manifests: tuple[ManifestFacts, ...] = ()
    hosts: tuple[HostFacts, ...] = ()
    suppressions: Suppressions | None = None
    documents: int = 0
    skipped: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Validation:
    """The result of a whole ``pas validate`` run."""

    problems: tuple[Problem, ...] = ()
    paths: tuple[str, ...] = ()
    files: int = 0
    documents: int = 0
    skipped: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def io_error(self) -> bool:
        """A path was missing or a file unreadable: the run is a usage/I-O failure (exit 2)."""
        return any(p.code in INPUT_CODES for p in self.problems)



def check_file(target: Target, settings: Settings) -> FileResult:
    """Load one file through the one loader, then the suppressions and each document's rules; never raises."""
    return _check_loaded(load_file(target, settings.load), settings)


def check_text(target: Target, text: str, settings: Settings) -> FileResult:
    """As :func:`check_file`, for ``text`` as the contents of ``target`` (an editor's unsaved buffer)."""
    return _check_loaded(load_text(text, target, settings.load), settings)


def _check_loaded(loaded: LoadedFile, settings: Settings) -> FileResult:
    target = loaded.target
    suppressions: Suppressions | None = None
    problems: list[Problem] = []
    if loaded.documents and "pas:" in loaded.text:
        suppressions, problems = parse_suppressions(loaded.text, target.path)
    manifests, hosts = [], []
    for item in loaded.documents:
        problems.extend(item.problems)
        if not item.checked:
            continue
        assert item.kind is not None  # a checked document has a kind
        problems.extend(lint.check_document(item.kind.value, item.doc, settings.config.lint))
        if item.kind is Kind.MANIFEST:
            facts = manifest_facts(item.doc)
            manifests.extend([facts] if facts else [])
        else:
            hosts.append(host_facts(item.doc))
    checked = sum(item.checked for item in loaded.documents)
    return FileResult(path=target.path, problems=(*problems, *loaded.problems), manifests=tuple(manifests),
                      hosts=tuple(hosts), suppressions=suppressions, documents=checked,
                      skipped=len(loaded.documents) - checked)


def check_paths(paths: Sequence[str], settings: Settings = Settings()) -> Validation:
    """Validate every file the paths name, then the set rules across all of them."""
    targets, problems = collect_targets(paths)
    return finish(targets, problems, _check_all(targets, settings), settings)


def finish(targets: Sequence[Target], problems: Sequence[Problem], results: Sequence[FileResult],
           settings: Settings) -> Validation:
    """The set rules across every file's ``results``, then the suppressions: the whole validation.

    ``problems`` are the paths' own (a missing path ...); ``pas lsp`` calls this with its buffers' results.
    """
    manifests = [facts for result in results for facts in result.manifests]
    hosts = [facts for result in results for facts in result.hosts]
    found = [problem for result in results for problem in result.problems]
    found.extend(lint.check_set(manifests, hosts, settings.config.lint))
    by_path = {r.path: r.suppressions for r in results if r.suppressions is not None}
    kept = (*problems, *apply_suppressions(found, by_path, settings.config))
    counts = {level.value: sum(p.severity is level for p in kept) for level in Severity}
    return Validation(problems=kept, paths=tuple(t.path for t in targets), files=len(targets),
                   documents=sum(r.documents for r in results), skipped=sum(r.skipped for r in results), counts=counts)


def _workers(settings: Settings, files: int) -> int:
    if settings.jobs:
        return settings.jobs
    if files < _PARALLEL_FROM:
        return 1
    available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return min(available, 4)


def _check_all(targets: list[Target], settings: Settings) -> list[FileResult]:
    workers = _workers(settings, len(targets))
    if workers > 1 and len(targets) > 1:
        results = _check_in_pool(targets, settings, workers)
        if results is not None:
            return results
    load = settings.load  # once, not per file
    return [_check_loaded(load_file(target, load), settings) for target in targets]


def _check_in_pool(targets: list[Target], settings: Settings, workers: int) -> list[FileResult] | None:
    """Check files in forked worker processes (results in input order); None where fork is missing."""
    import functools
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    from conformance.documents.schemas import certainly_valid, validator

    for kind in CHECKED_KINDS:  # built once here, inherited by every forked worker
        certainly_valid(kind.value, None)
        validator(kind.value)
    chunk = max(1, len(targets) // (workers * 8))
    try:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            return list(pool.map(functools.partial(check_file, settings=settings), targets, chunksize=chunk))
    except OSError:  # no processes or pipes to be had: the serial path still works
        return None
