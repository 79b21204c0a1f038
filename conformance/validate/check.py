"""``pas validate``: paths -> documents -> kind -> schema problems -> semantic rules -> problems.

Files named on the command line (or matched by a glob) are *explicit*: a document in them
that is not a PAS document is reported (``unrecognized-document``, info). Files found by
walking a directory are *discovered*: such documents are skipped silently, so a repository
can be validated as a whole. Loader problems (syntax, caps, encoding) are reported for both.
"""

from __future__ import annotations

import dataclasses
import enum
import glob
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from conformance.documents.exit_codes import ExitCode
from conformance.documents.loader import DOCUMENT_SUFFIXES, YamlDocument, parse_documents, read_text, refuse_special
from conformance.documents.walk import expand_pattern, walk_folder
from conformance.validate import lint
from conformance.validate.lint.facts import (
    HostFacts,
    ManifestFacts,
    doc_problem,
    host_facts,
    make_problem,
    manifest_facts,
)
from conformance.validate.suppress import Config, Suppressions, apply_suppressions, parse_suppressions
from reference_impl.problems import Problem, Severity, SourceLocation

IO_CODES = frozenset({"path-not-found", "unreadable", "special-file"})
_SCHEMA_REF = re.compile(r"(plugin-manifest|host-config)\.schema\.(?:json|ya?ml)(?:#.*)?$")
_MODELINE = re.compile(r"#[ \t]*yaml-language-server:[ \t]*\$schema=(\S+)")
_HOST_KEYS = frozenset({"enabled", "disabled", "strategies", "scheduler_enabled"})
_MAX_MESSAGE = 240
_PARALLEL_FROM = 256  # files; below this, starting worker processes costs more than it saves


class Kind(enum.StrEnum):
    """The kinds of document ``pas validate`` checks, named like their schemas."""

    MANIFEST = "plugin-manifest"
    HOST_CONFIG = "host-config"


@dataclass(frozen=True, slots=True, kw_only=True)
class Target:
    """One file to check; ``explicit`` when named on the command line or matched by a glob."""

    path: str
    explicit: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """How to validate: the config (rules, caps, suppressions), a forced kind, worker processes."""

    config: Config = Config()
    kind: Kind | None = None
    jobs: int = 0  # 0: automatic


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
        return any(p.code in IO_CODES for p in self.problems)

    def exit_code(self, *, strict: bool = False) -> ExitCode:
        """USAGE on an I/O error, FAILED on errors (or warnings with ``strict``), else OK."""
        if self.io_error:
            return ExitCode.USAGE
        failing = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
        return ExitCode.FAILED if any(p.severity in failing for p in self.problems) else ExitCode.OK


def collect_targets(paths: Iterable[str]) -> tuple[list[Target], list[Problem]]:
    """Expand files, folders (recursively: *.yaml, *.yml, *.json) and globs, each real file once.

    A missing path, a glob matching nothing and a folder holding no document are
    ``path-not-found`` (exit 2); folders that cannot be listed are ``unreadable`` and FIFOs,
    sockets and devices ``special-file`` (exit 2, never opened); a directory link back into
    a folder already walked is a ``symlink-cycle`` warning.
    """
    targets: dict[str, Target] = {}
    problems: list[Problem] = []
    for raw in paths:
        if os.path.isdir(raw):
            found = _walk(raw, problems)
        elif os.path.lexists(raw) or not glob.has_magic(raw):
            found = _explicit(raw, problems)
        else:
            found = _expand_glob(raw, problems)
        for target in found:
            key = os.path.realpath(target.path)
            if key not in targets or target.explicit:  # named on the command line wins over found in a folder
                targets[key] = target
    return list(targets.values()), problems


def _explicit(raw: str, problems: list[Problem]) -> list[Target]:
    if not os.path.exists(raw):
        problems.append(_not_found(raw, "no such file or directory"))
        return []
    special = refuse_special(raw)
    if special is not None:
        problems.append(special)
        return []
    return [Target(path=raw)]


def _not_found(raw: str, message: str) -> Problem:
    return make_problem("path-not-found", message, "", SourceLocation(path=raw))


def _expand_glob(pattern: str, problems: list[Problem]) -> list[Target]:
    found: list[Target] = []
    for match in expand_pattern(pattern):
        if match.is_dir():
            found.extend(_walk(str(match), problems))
        elif match.is_file():
            found.append(Target(path=str(match)))
        else:
            found.extend(_explicit(str(match), problems))
    if not found and not problems:
        problems.append(_not_found(pattern, "the pattern matches no YAML or JSON file"))
    return found


def _walk(root: str, problems: list[Problem]) -> list[Target]:
    """The documents under ``root`` (conformance.documents.walk); an empty folder is a problem."""
    walk = walk_folder(root)
    problems.extend(walk.problems)
    if not walk.files and not any(p.severity is Severity.ERROR for p in walk.problems):
        problems.append(make_problem("path-not-found", f"the folder holds no YAML or JSON file "
                                     f"({', '.join(DOCUMENT_SUFFIXES)}); check the path", "", SourceLocation(path=root)))
    return [Target(path=str(path), explicit=False) for path in walk.files]


def _kind_of_reference(reference: object) -> Kind | None:
    match = _SCHEMA_REF.search(reference) if isinstance(reference, str) else None
    return Kind(match.group(1)) if match else None


def detect_kind(value: dict, modeline: Kind | None = None) -> Kind | None:
    """The kind of a mapping: declared ``kind``, then ``$schema``, the modeline, then its shape."""
    declared = value.get("kind")
    if declared in (Kind.MANIFEST, Kind.HOST_CONFIG):
        return Kind(declared)
    kind = _kind_of_reference(value.get("$schema")) or modeline
    if kind is not None:
        return kind
    if "module_name" in value:
        return Kind.MANIFEST
    return Kind.HOST_CONFIG if _HOST_KEYS.intersection(value) else None


def _scan_text(text: str, path: str) -> tuple[Suppressions | None, Kind | None, list[Problem]]:
    """Suppression comments and the editor modeline, from the text the documents were parsed from."""
    suppressions: Suppressions | None = None
    problems: list[Problem] = []
    if "pas:" in text:
        suppressions, problems = parse_suppressions(text, path)
    modeline = _MODELINE.search(text) if "yaml-language-server" in text else None
    kind = _kind_of_reference(modeline.group(1)) if modeline else None
    return suppressions, kind, problems


def _shorten(problem: Problem) -> Problem:
    """Keep messages readable: a schema message quotes the value, which can be megabytes long."""
    text = problem.message
    if len(text) <= _MAX_MESSAGE:
        return problem
    return dataclasses.replace(problem, message=f"{text[:_MAX_MESSAGE // 2]} ... {text[-_MAX_MESSAGE // 3:]}")


def _check_document(doc: YamlDocument, kind: Kind, settings: Settings) -> list[Problem]:
    """Schema problems (jsonschema runs only when the fast path is not sure), then the rules."""
    from conformance.documents.suggest import check_with_hints

    schema_problems = [_shorten(problem) for problem in check_with_hints(kind.value, doc)]
    return [*schema_problems, *lint.check_document(kind.value, doc, settings.config.lint)]


def _not_a_mapping(doc: YamlDocument) -> Problem:
    names = {type(None): "empty", list: "a list", str: "a string"}
    kind = names.get(type(doc.value), type(doc.value).__name__)
    return doc_problem("not-a-mapping", f"the document root is {kind}; a manifest or host config is a mapping", doc, "")


def _kind_or_problem(doc: YamlDocument, target: Target, settings: Settings, modeline: Kind | None,
                     alone: bool) -> Kind | Problem | None:
    """The kind to check ``doc`` as, a problem saying why it is not checked, or None to skip it silently."""
    if not isinstance(doc.value, dict):
        noisy = (settings.kind or target.explicit) and (doc.value is not None or alone)
        return _not_a_mapping(doc) if noisy else None
    kind = settings.kind or detect_kind(doc.value, modeline)
    if kind is None and target.explicit:
        return doc_problem("unrecognized-document", "neither a plugin manifest nor a host config (no kind, $schema "
                           "or module_name); skipped, use --kind to check it anyway", doc, "")
    return kind


def check_file(target: Target, settings: Settings) -> FileResult:
    """Load one file and check each of its documents; never raises for bad input."""
    text, problem = read_text(target.path, settings.config.limits)
    if problem is None:
        assert text is not None  # read_text gives the text or a problem
        docs, loader_problems = parse_documents(text, target.path, settings.config.limits)
    else:
        text, docs, loader_problems = "", [], [problem]
    if not docs and not loader_problems:
        loader_problems = [make_problem("empty-document", "the file holds only comments; expected a mapping", "",
                                        SourceLocation(path=target.path, line=1, column=1))]
    suppressions, modeline, problems = _scan_text(text, target.path) if docs else (None, None, [])
    manifests, hosts, checked = [], [], 0
    for doc in docs:
        kind = _kind_or_problem(doc, target, settings, modeline, alone=len(docs) == 1)
        if not isinstance(kind, Kind):
            problems.extend([kind] if kind else [])
            continue
        checked += 1
        problems.extend(_check_document(doc, kind, settings))
        if kind is Kind.MANIFEST:
            facts = manifest_facts(doc)
            manifests.extend([facts] if facts else [])
        else:
            hosts.append(host_facts(doc))
    return FileResult(path=target.path, problems=(*problems, *loader_problems), manifests=tuple(manifests),
                      hosts=tuple(hosts), suppressions=suppressions, documents=checked, skipped=len(docs) - checked)


def check_paths(paths: Sequence[str], settings: Settings = Settings()) -> Validation:
    """Validate every file the paths name, then the set rules across all of them."""
    targets, problems = collect_targets(paths)
    results = _check_all(targets, settings)
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
    return [check_file(target, settings) for target in targets]


def _check_in_pool(targets: list[Target], settings: Settings, workers: int) -> list[FileResult] | None:
    """Check files in forked worker processes (results in input order); None where fork is missing."""
    import functools
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    from conformance.documents.schemas import certainly_valid, validator

    for kind in Kind:  # built once here, inherited by every forked worker
        certainly_valid(kind.value, None)
        validator(kind.value)
    chunk = max(1, len(targets) // (workers * 8))
    try:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            return list(pool.map(functools.partial(check_file, settings=settings), targets, chunksize=chunk))
    except OSError:  # no processes or pipes to be had: the serial path still works
        return None
