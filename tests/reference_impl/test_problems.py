"""One Problem type for every finding: the report form and the host protocol's form."""

from __future__ import annotations

import pytest
from refimpl_builders import plugin

from reference_impl.lifecycle import plan
from reference_impl.model import HostConfig
from reference_impl.problems import Origin, Problem, Severity, SourceKind, SourceLocation

MISSING = Problem(code="missing-dependency", message="plugin 'a' depends on 'b', which is not installed",
                  plugins=("a", "b"), origin=Origin(kind=SourceKind.MANIFEST, name="a", pointer="/dependencies/0"))


def test_the_host_form_has_exactly_the_keys_of_the_protocol_schema():
    """protocol/common.schema.yaml#/$defs/host_problem: additionalProperties false."""
    assert MISSING.to_host_json() == {
        "code": "missing-dependency", "severity": "error", "message": MISSING.message, "plugins": ["a", "b"],
        "origin": {"kind": "manifest", "name": "a", "pointer": "/dependencies/0"},
    }


@pytest.mark.parametrize("problem", [
    MISSING,
    Problem(code="env-unknown-plugin", message="m", severity=Severity.WARNING),
], ids=["with-origin", "without-origin"])
def test_the_host_form_reads_back_to_the_same_problem(problem):
    assert Problem.from_host_json(problem.to_host_json()) == problem


def test_the_report_form_is_unchanged_by_the_host_fields():
    located = Problem(code="x", message="m", pointer="/a", source=SourceLocation(path="f.yaml", line=2, column=3),
                      plugins=("a",), origin=MISSING.origin)
    assert set(located.to_json()) == {"code", "severity", "message", "pointer", "source"}


def test_the_host_reports_its_findings_as_problems():
    result = plan([plugin("a", dependencies=("b",))], HostConfig(enabled=("a", "ghost")))
    assert [type(p) for p in result.problems] == [Problem, Problem]
    assert [(p.code, p.severity, p.plugins) for p in result.problems] == [
        ("plugin-not-found", Severity.WARNING, ("ghost",)), ("missing-dependency", Severity.ERROR, ("a", "b"))]
