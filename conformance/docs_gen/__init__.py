"""The generated part of the spec site: pages made from the very files the tools use.

Pure page builders live in the submodules (spec data in, Markdown or SVG text out); this
module loads the data, calls them, and writes or checks ``docs/generated/``. Run
``python -m conformance docs generate`` after changing spec/, the scenarios or the lint
registry; ``tests/docs`` fails while a committed page is stale.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reference_impl.problems import Problem

PROTOCOL_ORDER = ("hello", "start", "run", "activate", "extend", "set-strategy", "enable", "disable",
                  "set-scheduler", "restart", "bye", "error", "common")
MAIN_SCHEMAS = ("plugin-manifest", "host-config", "scenario", "requirements", "semantics")


@dataclass(frozen=True, slots=True, kw_only=True)
class GeneratedSite:
    """The generated files by path relative to docs/generated/, and any problem loading the sources."""

    files: Mapping[str, str] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()
    # Requirement IDs and fixed strings the Chinese pages show in English for want of a translation.
    missing_zh: frozenset[str] = frozenset()
    # Hand-written pages with generated regions (docs/rules/*.md, the validating guide): their full
    # text with the regions filled, by path under docs/ (conformance.docs_gen.hand_pages).
    pages: Mapping[str, str] = field(default_factory=dict)


def _load(path: Path) -> tuple[Any, list[Problem]]:
    from conformance.documents.loader import load_mapping

    doc, problems = load_mapping(path)
    return (doc.value if doc is not None else None), problems


def _schema_docs(schemas_dir: Path) -> tuple[list[Any], list[Problem]]:
    from conformance.docs_gen.schema_pages import SchemaDoc

    main, protocol, problems = [], [], []
    for path in sorted(schemas_dir.rglob("*.schema.yaml")):
        contents, found = _load(path)
        problems += found
        if contents is None:
            continue
        name = path.relative_to(schemas_dir).as_posix().removesuffix(".schema.yaml")
        if "/" in name:
            short = name.rsplit("/", 1)[1]
            protocol.append(SchemaDoc(name=name, contents=contents, page="schemas/protocol.md", prefix=f"{short}-"))
        else:
            main.append(SchemaDoc(name=name, contents=contents, page=f"schemas/{name}.md"))
    main.sort(key=lambda d: (MAIN_SCHEMAS.index(d.name) if d.name in MAIN_SCHEMAS else len(MAIN_SCHEMAS), d.name))
    protocol.sort(key=lambda d: _protocol_key(d.name))
    return main + protocol, problems


def _protocol_key(name: str) -> tuple[int, int, str]:
    short = name.rsplit("/", 1)[1]
    stem, _, direction = short.rpartition("-")
    if direction not in ("request", "response"):
        stem, direction = short, ""
    rank = PROTOCOL_ORDER.index(stem) if stem in PROTOCOL_ORDER else len(PROTOCOL_ORDER)
    return rank, ("request", "response", "").index(direction), short


def _schema_pages(schemas_dir: Path, known: frozenset[str]) -> tuple[dict[str, str], list[Problem]]:
    from conformance.docs_gen.i18n import t
    from conformance.docs_gen.schema_pages import combined_page, schema_index_page, schema_page

    docs, problems = _schema_docs(schemas_dir)
    by_id = {d.contents.get("$id", d.name): d for d in docs}
    files = {d.page: schema_page(d, by_id, known) for d in docs if d.page != "schemas/protocol.md"}
    protocol = [d for d in docs if d.page == "schemas/protocol.md"]
    if protocol:
        files["schemas/protocol.md"] = combined_page(t("Protocol messages"), t(
            "Every message of the JSON-lines stdio protocol has a JSON Schema under "
            "`spec/schemas/protocol/`; the runner checks what an implementation sends against them "
            "(and, with `--check-messages`, what it sends itself). The conversation they make up is "
            "described, with a worked transcript, on the [Protocol](../../protocol.md) page; the "
            "requirements each message serves are listed [here](../protocol-requirements.md)."),
            protocol, by_id, known)
    files["schemas/index.md"] = schema_index_page(docs)
    return files, problems


def _pages(sources: dict[str, Any]) -> tuple[dict[str, str], list[Problem]]:
    """Every Markdown page, in the current language (conformance.docs_gen.i18n.language)."""
    from conformance.adapters.protocol import MESSAGES
    from conformance.docs_gen.cli_pages import cli_page
    from conformance.docs_gen.codes_page import problem_codes_page
    from conformance.docs_gen.lint_pages import lint_rules_page
    from conformance.docs_gen.protocol_pages import message_requirements, protocol_requirements_page
    from conformance.docs_gen.scenario_pages import coverage_of, scenario_catalogue, scenario_page_of
    from conformance.docs_gen.spec_pages import decision_tables_page, specification_page
    from conformance.documents.codes import CODES
    from conformance.documents.exit_codes import ExitCode
    from conformance.suite.scenario import SUITE_DIR
    from conformance.validate.lint.registry import RULES
    from reference_impl.spec_files import spec_dir, spec_version

    requirements, semantics, scenarios = sources["requirements"], sources["semantics"], sources["scenarios"]
    ids = [r["id"] for r in requirements["requirements"]]
    known = frozenset(ids)
    schema_files, problems = _schema_pages(spec_dir() / "schemas", known)
    semantics_schema = _load(spec_dir() / "schemas" / "semantics.schema.yaml")[0] or {}
    schemas = {d.name: d.contents for d in _schema_docs(spec_dir() / "schemas")[0]}
    files = {
        "specification.md": specification_page(requirements, coverage_of(scenarios), spec_version(),
                                               scenario_page_of(scenarios, SUITE_DIR)),
        "decision-tables.md": decision_tables_page(semantics, semantics_schema, known),
        "lint-rules.md": lint_rules_page(RULES.values()),
        "problem-codes.md": problem_codes_page(CODES.values(), {code: f"../rules/{code}.md" for code in RULES}),
        "cli.md": cli_page(sources["parser"], [(c.name, c.value) for c in ExitCode]),
        "protocol-requirements.md": protocol_requirements_page(message_requirements(MESSAGES, schemas, scenarios, ids)),
        **scenario_catalogue(scenarios, SUITE_DIR),
        **schema_files,
    }
    return files, problems


def generate(parser: argparse.ArgumentParser, *, docs_dir: Path | None = None,
             validate: Callable[[Sequence[str]], str] | None = None) -> GeneratedSite:
    """Build every generated page, in English and in Simplified Chinese (``page.zh.md``), and the pictures.

    ``parser`` is the ``pas`` argument parser (``conformance.cli.main.build_parser()``), which the
    CLI reference is read from; it is passed in because the command line stands above this
    package (docs/architecture.md). With ``docs_dir`` and ``validate`` (``pas validate ARGS`` ->
    what it prints, also from the command line), the generated regions of the hand-written pages
    under ``docs_dir`` are filled too (:attr:`GeneratedSite.pages`).

    The Chinese pages take the requirement texts from spec/requirements.zh.yaml and the fixed
    strings from conformance/docs_gen/vocabulary.zh.yaml; whatever is missing there falls back to
    English (see ``chinese_gaps``).
    """
    from conformance.docs_gen.i18n import chinese, language
    from conformance.docs_gen.timeline import overview_timelines
    from conformance.suite.scenario import load_suite
    from reference_impl.spec_files import spec_dir

    requirements, problems = _load(spec_dir() / "requirements.yaml")
    semantics, found = _load(spec_dir() / "semantics.yaml")
    problems += found
    scenarios, found = load_suite()
    problems += found
    if requirements is None or semantics is None:
        return GeneratedSite(problems=tuple(problems))
    sources = {"requirements": requirements, "semantics": semantics, "scenarios": scenarios, "parser": parser}
    files, found = _pages(sources)
    problems += found
    zh = chinese(spec_dir())
    with language(zh):
        translated, _ = _pages(sources)
    files.update({zh.page(path): text for path, text in translated.items()})
    files.update(overview_timelines())
    pages = {}
    if docs_dir is not None and validate is not None:
        from conformance.docs_gen.hand_pages import hand_pages
        from conformance.validate.lint.registry import RULES

        pages = hand_pages(docs_dir, RULES.values(), validate, zh)
    return GeneratedSite(files=dict(sorted(files.items())), problems=tuple(problems), missing_zh=frozenset(zh.missing),
                         pages=dict(sorted(pages.items())))


def write_generated(out_dir: Path | str, site: GeneratedSite) -> tuple[Path, ...]:
    """Write every generated file under ``out_dir`` and delete files there that are no longer generated.

    Returns the paths written. Writes nothing when the sources have problems (the caller reports
    ``site.problems``); raises OSError when ``out_dir`` cannot be written.
    """
    if site.problems:
        return ()
    out = Path(out_dir)
    for stale in sorted(set(_existing(out)) - set(site.files)):
        (out / stale).unlink()
    written = []
    for relative, content in site.files.items():
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.is_file() or target.read_text(encoding="utf-8") != content:
            target.write_text(content, encoding="utf-8", newline="\n")
        written.append(target)
    return tuple(written)


def _existing(out: Path) -> list[str]:
    return [p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()] if out.is_dir() else []


def stale_files(out_dir: Path | str, site: GeneratedSite) -> list[str]:
    """Paths under ``out_dir`` that are missing, different, or no longer generated (empty: up to date)."""
    out = Path(out_dir)
    existing = set(_existing(out))
    changed = [p for p, text in site.files.items()
               if p not in existing or (out / p).read_text(encoding="utf-8") != text]
    return sorted(changed + sorted(existing - set(site.files)))


def write_pages(docs_dir: Path | str, site: GeneratedSite) -> tuple[Path, ...]:
    """Write the hand-written pages whose generated regions changed; the paths written (raises OSError)."""
    written = []
    for relative, content in site.pages.items():
        target = Path(docs_dir) / relative
        if target.read_text(encoding="utf-8") != content:
            target.write_text(content, encoding="utf-8", newline="\n")
            written.append(target)
    return tuple(written)


def stale_pages(docs_dir: Path | str, site: GeneratedSite) -> list[str]:
    """Hand-written pages under ``docs_dir`` whose generated regions are out of date."""
    return [relative for relative, content in site.pages.items()
            if (Path(docs_dir) / relative).read_text(encoding="utf-8") != content]
