"""JUnit XML: a ``testsuite`` per profile, a ``testcase`` per scenario.

A scenario belongs to the most specific profile it needs (disclosure, host, then text, then
activation). Failed and stale scenarios carry ``<failure>``, errored ones ``<error>`` (whose
``type`` is the failure's kind: ``timeout``, ``exited``, ``schema`` ...),
skipped ones ``<skipped>``, and xfailed ones ``<skipped type="xfail">`` with the listed
reason; the element text is the same readable diff as the text report. A SHOULD the
implementation's declared options decline is a ``testcase`` of the ``pas.declined`` suite,
``<skipped type="declined">``, its message the hazard and the declared values.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from conformance.report.text import error_text, failure_text, headline
from conformance.suite.results import Outcome, RequirementStatus, RunResult, ScenarioResult

_PROFILE_ORDER = ("disclosure", "host", "text", "activation")
# XML 1.0 cannot hold most control characters, nor lone surrogates; an implementation's garbage may contain them.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def suite_of(result: ScenarioResult) -> str:
    """The profile whose testsuite holds this scenario."""
    return next((p for p in _PROFILE_ORDER if p in result.profiles), "activation")


def _detail(case: ET.Element, result: ScenarioResult) -> None:
    tag, kind, text = {
        Outcome.FAILED: ("failure", "mismatch", failure_text(result)),
        Outcome.STALE: ("failure", "stale", headline(result)),
        Outcome.ERRORED: ("error", result.error.kind.value if result.error else "errored", error_text(result)),
        Outcome.SKIPPED: ("skipped", "skipped", ""),
        Outcome.XFAILED: ("skipped", "xfail", failure_text(result)),
    }.get(result.outcome, (None, "", ""))
    if tag is None:
        return
    message = headline(result) if result.outcome is not Outcome.XFAILED else f"expected failure: {result.reason}"
    element = ET.SubElement(case, tag, message=_clean(message), type=kind)
    if text:
        element.text = _clean(text)


def _suite(parent: ET.Element, name: str, results: Sequence[ScenarioResult], run: RunResult) -> None:
    count = {o: sum(r.outcome is o for r in results) for o in Outcome}
    suite = ET.SubElement(parent, "testsuite", name=f"pas.{name}", tests=str(len(results)),
                          failures=str(count[Outcome.FAILED] + count[Outcome.STALE]), errors=str(count[Outcome.ERRORED]),
                          skipped=str(count[Outcome.SKIPPED] + count[Outcome.XFAILED]),
                          time=f"{sum(r.duration for r in results):.6f}")
    if run.spec_version or run.info is not None:
        properties = ET.SubElement(suite, "properties")
    if run.spec_version:
        ET.SubElement(properties, "property", name="spec_version", value=run.spec_version)
    if run.info is not None:
        for key, value in run.info.to_json().items():
            text = ", ".join(value) if isinstance(value, list) else _options(value) if isinstance(value, dict) else str(value)
            ET.SubElement(properties, "property", name=f"implementation.{key}", value=_clean(text))
    for result in results:
        case = ET.SubElement(suite, "testcase", name=result.id, classname=f"pas.{name}", file=result.path,
                             time=f"{result.duration:.6f}")
        _detail(case, result)


def _options(declared: dict[str, object]) -> str:
    return ", ".join(f"{k}={'+'.join(map(str, v)) if isinstance(v, list) else v}" for k, v in declared.items())


def _declined(parent: ET.Element, run: RunResult) -> None:
    """The declined SHOULDs, one skipped testcase each: a hazard the declaration names, not a failure."""
    declined = [t for t in run.summary.requirements if t.status is RequirementStatus.DECLINED]
    if not declined:
        return
    suite = ET.SubElement(parent, "testsuite", name="pas.declined", tests=str(len(declined)), failures="0",
                          errors="0", skipped=str(len(declined)), time="0.000000")
    for tally in declined:
        case = ET.SubElement(suite, "testcase", name=tally.requirement.id, classname="pas.declined", time="0.000000")
        message = f"declined by declaration ({tally.declined}): {tally.requirement.title}"
        ET.SubElement(case, "skipped", message=_clean(message), type="declined").text = _clean(tally.requirement.text)


def render(run: RunResult, *, color: bool = False) -> str:
    """The JUnit XML document; ``color`` is ignored."""
    counts = run.summary.counts
    root = ET.Element("testsuites", name="pas", tests=str(len(run.results)),
                      failures=str(counts[Outcome.FAILED] + counts[Outcome.STALE]), errors=str(counts[Outcome.ERRORED]),
                      skipped=str(counts[Outcome.SKIPPED] + counts[Outcome.XFAILED]), time=f"{run.duration:.6f}")
    groups: dict[str, list[ScenarioResult]] = {}
    for result in run.results:
        groups.setdefault(suite_of(result), []).append(result)
    for name in sorted(groups, key=lambda p: -_PROFILE_ORDER.index(p)):
        _suite(root, name, groups[name], run)
    _declined(root, run)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
