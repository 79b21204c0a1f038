"""Every problem code ``pas validate`` can report: severity, family, summary, docs page.

Codes are stable and kebab-case; each has a page ``docs/rules/<code>.md``. Loader codes
(the file could not be read as YAML) are not suppressible: nothing else in the file was
checked, so hiding them would hide the whole file.
"""

from __future__ import annotations

from dataclasses import dataclass

from reference_impl.problems import Severity

DOCS_BASE = "https://plugin-activation-spec.org/rules/"


@dataclass(frozen=True, slots=True, kw_only=True)
class Rule:
    """One problem code and how it is reported by default."""

    code: str
    severity: Severity
    family: str
    summary: str
    suppressible: bool = True

    @property
    def docs_slug(self) -> str:
        """The docs page of this code, relative to the docs root."""
        return f"rules/{self.code}.md"

    @property
    def docs_url(self) -> str:
        """The published URL of this code's docs page."""
        return f"{DOCS_BASE}{self.code}/"


@dataclass(frozen=True, slots=True, kw_only=True)
class LintOptions:
    """Options of the semantic rules; the defaults are the documented ones."""

    brief_min_length: int = 20
    brief_max_length: int = 400
    known_modules: frozenset[str] = frozenset()
    cross_file: bool = True


_E, _W, _I = Severity.ERROR, Severity.WARNING, Severity.INFO


def _loader(code: str, summary: str) -> Rule:
    return Rule(code=code, severity=_E, family="loader", summary=summary, suppressible=False)


_ALL = (
    _loader("path-not-found", "a path, glob or folder given matches no file: missing, or a folder with no YAML or JSON file (exit 2)"),
    _loader("unreadable", "the file exists but cannot be read (exit 2)"),
    _loader("special-file", "the path is a FIFO, socket or device, which is never opened (exit 2)"),
    _loader("file-too-large", "the file is larger than the size cap"),
    _loader("not-text", "the file is binary (NUL bytes)"),
    _loader("invalid-utf8", "the file is not valid UTF-8"),
    _loader("empty-document", "the file holds no YAML document"),
    _loader("yaml-syntax", "the YAML or JSON does not parse"),
    _loader("yaml-tag", "a tag such as !!python/object is used; tags are never executed"),
    _loader("yaml-too-deep", "nesting is deeper than the depth cap"),
    _loader("yaml-too-many-aliases", "more aliases than the alias cap"),
    _loader("yaml-too-many-nodes", "the document expands to more values than the node cap (alias bomb)"),
    _loader("yaml-complex-key", "a mapping key is itself a mapping or a sequence"),
    _loader("yaml-merge-key", "a YAML merge key (<<) is used"),
    _loader("yaml-null-key", "a mapping key is null (~, null or empty) instead of a name"),
    _loader("duplicate-key", "a mapping has the same key twice (YAML and JSON)"),
    _loader("not-a-mapping", "a document's root is not a mapping"),
    Rule(code="schema", severity=_E, family="schema",
         summary="the document does not match the plugin-manifest or host-config JSON Schema"),
    Rule(code="unrecognized-document", severity=_I, family="kind",
         summary="a file named on the command line is neither a manifest nor a host config; skipped"),
    Rule(code="allow-sleep-without-brief", severity=_W, family="brief",
         summary="allow_sleep is true but sleep_brief is blank, so the plugin never sleeps"),
    Rule(code="brief-too-short", severity=_W, family="brief",
         summary="sleep_brief is shorter than brief_min_length display columns"),
    Rule(code="brief-too-long", severity=_W, family="brief",
         summary="sleep_brief is longer than brief_max_length display columns"),
    Rule(code="brief-repeats-description", severity=_W, family="brief",
         summary="sleep_brief only repeats the description"),
    Rule(code="protected-brief", severity=_I, family="brief",
         summary="a protected plugin (allow_sleep false) has a sleep_brief the model never sees"),
    Rule(code="brief-without-allow-sleep", severity=_W, family="brief",
         summary="sleep_brief is set but allow_sleep is not, so the plugin never sleeps by default"),
    Rule(code="version-not-semver", severity=_W, family="structure",
         summary="version is not Semantic Versioning (MAJOR.MINOR.PATCH)"),
    Rule(code="method-without-description", severity=_W, family="structure",
         summary="a method's description is blank, so the model sees only its name"),
    Rule(code="duplicate-method-name", severity=_E, family="structure",
         summary="two methods of one manifest have the same name"),
    Rule(code="schema-key-without-value", severity=_W, family="structure",
         summary="a key with no value inside method parameters or the config schema (text cut at a comma)"),
    Rule(code="ambiguous-yaml-value", severity=_W, family="yaml",
         summary="an unquoted value reads differently in YAML 1.1 tools (yes/no/on/off) or loses digits (1.10)"),
    Rule(code="missing-dependency", severity=_W, family="graph",
         summary="a dependency names a module that is not in the validated set"),
    Rule(code="dependency-cycle", severity=_E, family="graph",
         summary="manifests in the validated set depend on each other in a cycle"),
    Rule(code="duplicate-module-name", severity=_E, family="graph",
         summary="two manifests in the validated set declare the same module_name"),
    Rule(code="unknown-strategy-module", severity=_W, family="host",
         summary="a host-config strategy names a module that is not in the validated set"),
    Rule(code="strategy-on-protected", severity=_W, family="host",
         summary="a host-config strategy targets a protected plugin and is ignored"),
    Rule(code="strategy-without-brief", severity=_W, family="host",
         summary="strategy allow_sleep on a plugin whose sleep_brief is blank has no effect"),
    Rule(code="controller-sleepable", severity=_E, family="eligibility",
         summary="a manifest or host-config strategy would let the scheduler plugin plugin_activation sleep"),
    Rule(code="unknown-suppression", severity=_W, family="suppression",
         summary="a '# pas: disable=' comment names a code that does not exist"),
)

RULES: dict[str, Rule] = {rule.code: rule for rule in _ALL}


def rule(code: str) -> Rule:
    """The registered rule for ``code``; raises KeyError for an unknown code."""
    return RULES[code]
