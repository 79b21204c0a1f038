"""The one loader for sets of documents: paths in, documents by kind and every problem out.

``pas validate``, ``pas simulate``, ``pas budget``, ``pas host plan``, ``pas config explain`` and
``pas extract`` (reading back what it writes) all load through here, so one folder gets one
answer from every command:

1. paths become files by :func:`conformance.documents.walk.collect_targets` (one walker: files,
   folders, symlinked folders, globs; missing paths, empty folders and special files are problems);
2. each file is read and parsed once by :mod:`conformance.documents.loader` (caps, encoding,
   YAML 1.2, duplicate keys, locations);
3. each document's kind is detected once by :func:`conformance.documents.kinds.detect_kind` (its
   ``kind``, ``$schema``, the file's modeline or name, its shape);
4. each manifest and host config is checked once against its schema (did-you-mean hints added,
   long values cut), every problem located at file:line:col and JSON pointer.

Documents that are not PAS documents are skipped, silently when they were found in a folder and
with an ``unrecognized-document`` note when the user named the file. :func:`input_missing` is the
one reading of loading problems as an exit status.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from conformance.documents.kinds import CHECKED_KINDS, Kind, detect_kind, filename_kind, modeline_kind
from conformance.documents.loader import Limits, YamlDocument, parse_documents, read_text
from conformance.documents.suggest import check_with_hints
from conformance.documents.walk import Target, collect_targets
from reference_impl.problems import Problem, Severity, SourceLocation

#: Problems that mean an input could not be had at all (missing, unreadable, never opened, or a set
#: without the documents a command needs): usage or I/O errors, exit 2 from every command.
INPUT_CODES = frozenset({"path-not-found", "unreadable", "special-file", "not-a-directory", "no-manifests"})
_MAX_MESSAGE = 240
_SKIPPED = "skipped"


@dataclass(frozen=True, slots=True, kw_only=True)
class LoadSettings:
    """How to load: a kind to check every document as (``pas validate --kind``), the loader caps,
    and what the note on an unrecognized named file suggests."""

    kind: Kind | None = None
    limits: Limits = Limits()
    unrecognized_hint: str = _SKIPPED


@dataclass(frozen=True, slots=True, kw_only=True)
class Loaded:
    """One document: its kind (None: not a PAS document) and its own problems (kind and schema)."""

    doc: YamlDocument
    kind: Kind | None = None
    problems: tuple[Problem, ...] = ()

    @property
    def checked(self) -> bool:
        """Whether this document was checked against its kind's schema."""
        return self.kind in CHECKED_KINDS


@dataclass(frozen=True, slots=True, kw_only=True)
class LoadedFile:
    """One file: its text (for comments such as suppressions), its documents, and its file problems."""

    target: Target
    text: str = ""
    documents: tuple[Loaded, ...] = ()
    problems: tuple[Problem, ...] = ()  # reading and parsing: the file, not one document

    @property
    def path(self) -> str:
        """The file's path as the user or the walk gave it."""
        return self.target.path

    def all_problems(self) -> list[Problem]:
        """Each document's problems in order, then the file's."""
        return [*(p for loaded in self.documents for p in loaded.problems), *self.problems]


@dataclass(frozen=True, slots=True, kw_only=True)
class DocumentSet:
    """Every file of a set, loaded, and every problem: the paths' first, then each file's in order."""

    files: tuple[LoadedFile, ...] = ()
    problems: tuple[Problem, ...] = ()

    def of_kind(self, kind: Kind) -> list[tuple[LoadedFile, YamlDocument]]:
        """The documents of ``kind`` that passed their schema, with their files, in path order."""
        return [(file, loaded.doc) for file in self.files for loaded in file.documents
                if loaded.kind is kind and not _has_error(loaded.problems)]


def _has_error(problems: Iterable[Problem]) -> bool:
    return any(p.severity is Severity.ERROR for p in problems)


def has_error(problems: Iterable[Problem]) -> bool:
    """Whether any of ``problems`` is an error (an input that could not be had counts: :data:`INPUT_CODES`)."""
    return _has_error(problems)


def input_missing(problems: Iterable[Problem]) -> bool:
    """Whether an input could not be had at all (:data:`INPUT_CODES`): a missing path, an unreadable file ..."""
    return any(p.code in INPUT_CODES for p in problems)


def _shorten(problem: Problem) -> Problem:
    """Keep messages readable: a schema message quotes the value, which can be megabytes long."""
    text = problem.message
    if len(text) <= _MAX_MESSAGE:
        return problem
    return dataclasses.replace(problem, message=f"{text[:_MAX_MESSAGE // 2]} ... {text[-_MAX_MESSAGE // 3:]}")


def _not_a_mapping(doc: YamlDocument) -> Problem:
    names = {type(None): "empty", list: "a list", str: "a string"}
    kind = names.get(type(doc.value), type(doc.value).__name__)
    return Problem(code="not-a-mapping", message=f"the document root is {kind}; a manifest or host config is a mapping",
                   source=doc.where(""))


def _unrecognized(doc: YamlDocument, kind: Kind | None, hint: str) -> Problem:
    message = ("a scenario (pas run --scenario runs it), not a plugin manifest or a host config; skipped"
               if kind is Kind.SCENARIO else
               f"neither a plugin manifest nor a host config (no kind, $schema or module_name); {hint}")
    return Problem(code="unrecognized-document", severity=Severity.INFO, message=message, source=doc.where(""))


_WHERE_KIND_GOES = {Kind.MANIFEST: "put it in the plugin folder", Kind.HOST_CONFIG: "give it as the host config"}


def _wrong_kind(doc: YamlDocument, kind: Kind, expected: Kind) -> Problem:
    pointer = "/kind" if doc.value.get("kind") == kind else ""
    return Problem(code="wrong-kind", message=f"this is a {kind}, not a {expected}; {_WHERE_KIND_GOES[kind]}",
                   pointer=pointer, source=doc.where(pointer))


def _load_document(doc: YamlDocument, target: Target, settings: LoadSettings, modeline: Kind | None,
                   alone: bool) -> Loaded:
    """Detect ``doc``'s kind once and check it once against that kind's schema."""
    if not isinstance(doc.value, dict):
        noisy = (settings.kind or target.explicit) and (doc.value is not None or alone)
        return Loaded(doc=doc, problems=(_not_a_mapping(doc),) if noisy else ())
    kind = settings.kind or detect_kind(doc.value, modeline)
    if target.expect is not None and kind != target.expect:
        if kind in CHECKED_KINDS:
            return Loaded(doc=doc, kind=kind, problems=(_wrong_kind(doc, kind, target.expect),))
        kind = target.expect  # not a PAS document by itself (say, an empty host config): read as what it is given as
    if kind not in CHECKED_KINDS:
        return Loaded(doc=doc, kind=kind,
                      problems=(_unrecognized(doc, kind, settings.unrecognized_hint),) if target.explicit else ())
    assert kind is not None  # a checked kind
    return Loaded(doc=doc, kind=kind, problems=tuple(_shorten(p) for p in check_with_hints(kind.value, doc)))


def load_text(text: str, target: Target, settings: LoadSettings = LoadSettings()) -> LoadedFile:
    """Parse ``text`` (the contents of ``target``), detect each document's kind and check it; never raises."""
    docs, problems = parse_documents(text, target.path, settings.limits)
    if not docs and not problems:
        problems = [Problem(code="empty-document", message="the file holds only comments; expected a mapping",
                            source=SourceLocation(path=target.path, line=1, column=1))]
    modeline = (modeline_kind(text) or filename_kind(target.path)) if docs else None  # a modeline beats a name
    loaded = tuple(_load_document(doc, target, settings, modeline, alone=len(docs) == 1) for doc in docs)
    return LoadedFile(target=target, text=text, documents=loaded, problems=tuple(problems))


def load_file(target: Target, settings: LoadSettings = LoadSettings()) -> LoadedFile:
    """Read ``target`` and load it as :func:`load_text` does; an unreadable file is a problem, never raised."""
    text, problem = read_text(target.path, settings.limits)
    if problem is not None:
        return LoadedFile(target=target, problems=(problem,))
    assert text is not None  # read_text gives the text or a problem
    return load_text(text, target, settings)


def load_set(paths: Sequence[str | Path | Target], settings: LoadSettings = LoadSettings()) -> DocumentSet:
    """Load every file that ``paths`` name (see :func:`~conformance.documents.walk.collect_targets`).

    A :class:`Target` is read as the file it names (a host config given with ``--host``), and
    once only, should a folder of the set hold it too.
    """
    targets, problems = collect_targets(paths)
    files = tuple(load_file(target, settings) for target in targets)
    return DocumentSet(files=files, problems=(*problems, *(p for file in files for p in file.all_problems())))
