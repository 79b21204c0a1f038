"""Rules for what a plugin author meant but did not write: opting in to sleep, a semver version, method text.

- ``brief-without-allow-sleep``: a ``sleep_brief`` with ``allow_sleep`` left out (or null)
  never sleeps under the default ``auto`` strategy (ACT-ELIG): only an admin's
  ``allow_sleep`` strategy would use the brief. NekroAgent's own built-ins ``dice``,
  ``emotion``, ``timer`` ... are written this way, on purpose; a new plugin usually is not.
- ``version-not-semver``: ``version`` SHOULD be Semantic Versioning 2.0.0. Any string is
  accepted (NekroAgent takes any), so this is a warning and the rest of the manifest is
  still checked.
- ``method-without-description``: a method with a blank description is shown to the model
  as a bare name (NekroAgent does not show it at all: it skips methods without a docstring).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from conformance.documents.loader import YamlDocument
from conformance.validate.lint.controller import scheduler_module
from conformance.validate.lint.facts import doc_problem
from conformance.validate.lint.registry import LintOptions
from reference_impl.problems import Problem

# semver.org's recommended expression (2.0.0), anchored on the whole string.
SEMVER = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?"
)
_SHORT = re.compile(r"[vV]?(\d+)(?:\.(\d+))?(?:\.(\d+))?")


def check_manifest(doc: YamlDocument, options: LintOptions) -> Iterator[Problem]:
    """Brief-without-opt-in, non-semver version and blank method descriptions of one manifest."""
    del options  # no options; same signature as the other families
    value = doc.value
    brief = value.get("sleep_brief")
    # The controller never sleeps (ACT-ELIG-8): telling it to opt in would trade this warning for
    # controller-sleepable, an error.
    controller = value.get("module_name") == scheduler_module()
    if isinstance(brief, str) and brief.strip() and value.get("allow_sleep") is None and not controller:
        yield doc_problem("brief-without-allow-sleep",
                          "sleep_brief is set but allow_sleep is not, so the plugin never sleeps unless an admin "
                          "sets the allow_sleep strategy; add 'allow_sleep: true' to let it sleep", doc, "/sleep_brief")
    version = value.get("version")
    if isinstance(version, str) and version.strip() and not SEMVER.fullmatch(version):
        yield doc_problem("version-not-semver", f"version {version!r} is not semantic versioning "
                          f"(MAJOR.MINOR.PATCH); {suggest_version(version)}", doc, "/version")
    yield from _blank_methods(doc)


def suggest_version(version: str) -> str:
    """The fix to print: the nearest semver spelling when there is an obvious one."""
    short = _SHORT.fullmatch(version.strip())
    if short:
        major, minor, patch = (int(part) if part else 0 for part in short.groups())
        return f"write '{major}.{minor}.{patch}'"
    return "write it as MAJOR.MINOR.PATCH, e.g. '1.0.0'"


def _blank_methods(doc: YamlDocument) -> Iterator[Problem]:
    methods = doc.value.get("methods")
    for index, method in enumerate(methods if isinstance(methods, list) else ()):
        if not isinstance(method, dict) or not isinstance(method.get("name"), str):
            continue
        description = method.get("description")
        if isinstance(description, str) and not description.strip():
            yield doc_problem("method-without-description",
                              f"method {method['name']} has no description, so the model sees only its name; say "
                              "what it does, when to call it and what its arguments mean", doc,
                              f"/methods/{index}/description")
