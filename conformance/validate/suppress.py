"""Turning problems off: inline ``# pas: disable=`` comments and the ``.pas.yaml`` config file.

Inline, on the line a problem is reported at::

    sleep_brief: Notes.  # pas: disable=brief-too-short

or anywhere in the file, for the whole file: ``# pas: disable-file=code[,code]``. The config
file (``.pas.yaml`` in the working directory or a parent up to the repository root, or
``--config``) disables codes for every file, changes severities, and sets the rule options
and the loader's caps. Loader codes cannot be suppressed: the file was not read, so nothing
else in it was checked.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.documents.loader import Limits, load_mapping
from conformance.validate.lint.facts import make_problem
from conformance.validate.lint.registry import RULES, LintOptions
from reference_impl.errors import PasError
from reference_impl.problems import Problem, Severity, SourceLocation

CONFIG_NAMES = (".pas.yaml", ".pas.yml")
_COMMENT = re.compile(r"(?:^|[ \t])#[ \t]*pas:[ \t]*(disable|disable-file)[ \t]*=[ \t]*"
                      r"([A-Za-z0-9_-]+(?:[ \t]*,[ \t]*[A-Za-z0-9_-]+)*)", re.MULTILINE)
_LIMIT_KEYS = tuple(f.name for f in dataclasses.fields(Limits))
_INT_OPTIONS = ("brief_min_length", "brief_max_length")


class ConfigError(PasError, ValueError):
    """The config file is unreadable or wrong; ``pas validate`` exits 2 with this message."""

    def __init__(self, *, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Config:
    """Everything ``.pas.yaml`` can set; the defaults are used when there is no file."""

    disable: frozenset[str] = frozenset()
    severity: Mapping[str, Severity] = field(default_factory=dict)
    lint: LintOptions = LintOptions()
    limits: Limits = Limits()
    path: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Suppressions:
    """The inline suppressions of one file: per line, and for the whole file."""

    lines: Mapping[int, frozenset[str]] = field(default_factory=dict)
    file: frozenset[str] = frozenset()

    def covers(self, problem: Problem) -> bool:
        """Whether a comment in the file turns ``problem`` off."""
        if problem.code in self.file:
            return True
        line = problem.source.line if problem.source else None
        return line is not None and problem.code in self.lines.get(line, ())


def parse_suppressions(text: str, path: str) -> tuple[Suppressions, list[Problem]]:
    """Read the ``# pas: disable`` comments of a file; unknown codes are ``unknown-suppression`` warnings."""
    lines: dict[int, set[str]] = {}
    whole: set[str] = set()
    problems = []
    line, scanned = 1, 0
    for match in _COMMENT.finditer(text):
        line += text.count("\n", scanned, match.start())
        scanned = match.start()
        hash_at = text.index("#", match.start())
        column = hash_at - (text.rfind("\n", 0, hash_at) + 1) + 1
        for code in (c.strip() for c in match.group(2).split(",")):
            if code not in RULES:
                where = SourceLocation(path=path, line=line, column=column)
                problems.append(make_problem("unknown-suppression",
                                             f"'{code}' is not a pas validate code; see `pas validate --list-rules`",
                                             "", where))
            elif match.group(1) == "disable-file":
                whole.add(code)
            else:
                lines.setdefault(line, set()).add(code)
    frozen = {number: frozenset(codes) for number, codes in lines.items()}
    return Suppressions(lines=frozen, file=frozenset(whole)), problems


def apply_suppressions(problems: Iterable[Problem], by_path: Mapping[str, Suppressions],
                       config: Config) -> list[Problem]:
    """Drop suppressed problems and apply severity overrides; loader problems always stay."""
    kept = []
    for problem in problems:
        rule = RULES.get(problem.code)
        if rule is not None and rule.suppressible:
            if problem.code in config.disable:
                continue
            suppressions = by_path.get(problem.source.path) if problem.source else None
            if suppressions is not None and suppressions.covers(problem):
                continue
            if problem.code in config.severity:
                problem = dataclasses.replace(problem, severity=config.severity[problem.code])
        kept.append(problem)
    return kept


def find_config(start: Path) -> Path | None:
    """The nearest ``.pas.yaml`` (or ``.pas.yml``) in ``start`` or a parent, up to the repository root.

    The search stops at the first folder holding ``.git``, so a stray file above the
    repository is never picked up.
    """
    for folder in (start, *start.parents):
        for name in CONFIG_NAMES:
            if (folder / name).is_file():
                return folder / name
        if (folder / ".git").exists():
            return None
    return None


def load_config(path: Path) -> Config:
    """Read and check a config file; raises ConfigError naming the file, line and key."""
    doc, problems = load_mapping(path)
    if doc is None or problems:  # no document comes with a problem
        raise ConfigError(path=str(path), reason="; ".join(str(p) for p in problems))
    value = doc.value
    known = {"disable", "severity", "known_modules", "cross_file", "limits", *_INT_OPTIONS}

    def fail(key: str, reason: str) -> ConfigError:
        """The error for a bad ``key``."""
        return ConfigError(path=str(doc.where("/" + key, key=True)), reason=f"{key}: {reason}")

    for key in value:
        if key not in known:
            raise fail(key, f"unknown setting; use one of {', '.join(sorted(known))}")
    lint = _lint_options(value, fail)
    return Config(disable=_codes(value.get("disable", []), fail), severity=_severities(value.get("severity", {}), fail),
                  lint=lint, limits=_limits(value.get("limits", {}), fail), path=str(path))


def _codes(raw: Any, fail: Any) -> frozenset[str]:
    if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
        raise fail("disable", "must be a list of codes")
    return frozenset(check_codes(raw, fail, "disable"))


def check_codes(codes: Iterable[str], fail: Any, key: str) -> list[str]:
    """``codes`` if each is a known, suppressible code; else ``fail(key, reason)`` is raised."""
    codes = list(codes)
    for code in codes:
        if code not in RULES:
            raise fail(key, f"unknown code '{code}'; see `pas validate --list-rules`")
        if not RULES[code].suppressible:
            raise fail(key, f"'{code}' cannot be disabled or changed: the file could not be read")
    return codes


def _severities(raw: Any, fail: Any) -> dict[str, Severity]:
    if not isinstance(raw, dict):
        raise fail("severity", "must map codes to error, warning or info")
    check_codes(raw, fail, "severity")
    try:
        return {code: Severity(level) for code, level in raw.items()}
    except ValueError:
        raise fail("severity", "each level must be error, warning or info") from None


def _limits(raw: Any, fail: Any) -> Limits:
    if not isinstance(raw, dict) or any(k not in _LIMIT_KEYS for k in raw):
        raise fail("limits", f"must be a mapping with keys among {', '.join(_LIMIT_KEYS)}")
    if not all(_positive(v) for v in raw.values()):
        raise fail("limits", "each limit must be a positive integer")
    return Limits(**raw)


def _lint_options(value: Mapping[str, Any], fail: Any) -> LintOptions:
    options: dict[str, Any] = {k: value[k] for k in _INT_OPTIONS if k in value}
    for key, number in options.items():
        if not _positive(number):
            raise fail(key, "must be a positive integer")
    if "cross_file" in value:
        if not isinstance(value["cross_file"], bool):
            raise fail("cross_file", "must be true or false")
        options["cross_file"] = value["cross_file"]
    if "known_modules" in value:
        modules = value["known_modules"]
        if not isinstance(modules, list) or not all(isinstance(m, str) for m in modules):
            raise fail("known_modules", "must be a list of module names")
        options["known_modules"] = frozenset(modules)
    return LintOptions(**options)


def _positive(number: Any) -> bool:
    return isinstance(number, int) and not isinstance(number, bool) and number > 0
