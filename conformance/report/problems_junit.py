"""JUnit XML for ``pas validate``: one test case per file, failing when the file has failing problems."""

from __future__ import annotations

from typing import TYPE_CHECKING
from xml.etree import ElementTree

from reference_impl.problems import Problem, Severity

if TYPE_CHECKING:
    from conformance.validate.check import Validation


def grouped(outcome: Validation) -> dict[str, list[Problem]]:
    """The problems by file, every validated file listed (problems without a file under "")."""
    groups: dict[str, list[Problem]] = {path: [] for path in outcome.paths}
    for problem in outcome.problems:
        groups.setdefault(problem.source.path if problem.source else "", []).append(problem)
    return groups


def render_junit(outcome: Validation, *, strict: bool = False) -> str:
    """A ``<testsuites>`` document; errors (and warnings with ``strict``) are failures, the rest system-out."""
    failing = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
    groups = grouped(outcome)
    suites = ElementTree.Element("testsuites", name="pas validate")
    suite = ElementTree.SubElement(suites, "testsuite", name="pas validate", tests=str(len(groups)))
    failures = 0
    for path, problems in groups.items():
        case = ElementTree.SubElement(suite, "testcase", classname="pas validate", name=path or "(command line)")
        bad = [p for p in problems if p.severity in failing]
        if bad:
            failures += 1
            failure = ElementTree.SubElement(case, "failure", type=bad[0].code,
                                             message=f"{len(bad)} problem{'s' if len(bad) != 1 else ''}")
            failure.text = "\n".join(str(p) for p in bad)
        rest = [p for p in problems if p.severity not in failing]
        if rest:
            ElementTree.SubElement(case, "system-out").text = "\n".join(str(p) for p in rest)
    suite.set("failures", str(failures))
    suite.set("errors", "0")
    suites.set("tests", str(len(groups)))
    suites.set("failures", str(failures))
    ElementTree.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(suites, encoding="unicode") + "\n"
