"""One Problem type for every finding: the report form and the host protocol's form."""

from __future__ import annotations

import pytest
from support.refimpl_builders import plugin

from conformance.adapters.protocol.host_messages import host_observation_from_json
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
    """The runner's side of the wire reads it (conformance.adapters.protocol.host_messages)."""
    observation = host_observation_from_json({"events": [], "problems": [problem.to_host_json()]})
    assert observation.problems == (problem,)


def test_the_report_form_is_unchanged_by_the_host_fields():
    located = Problem(code="x", message="m", pointer="/a", source=SourceLocation(path="f.yaml", line=2, column=3),
                      plugins=("a",), origin=MISSING.origin)
    assert located.to_json() == {"code": "x", "severity": "error", "message": "m", "pointer": "/a",
                                 "source": {"path": "f.yaml", "line": 2, "column": 3}}
    assert Problem(code="x", message="m").to_json()["source"] is None


@pytest.mark.parametrize(("source", "text"), [
    (SourceLocation(path="f.yaml"), "f.yaml"),
    (SourceLocation(path="f.yaml", line=4), "f.yaml:4"),
    (SourceLocation(path="f.yaml", line=4, column=2), "f.yaml:4:2"),
    (SourceLocation(path="f.yaml", column=2), "f.yaml"),
], ids=["path", "line", "line-and-column", "column-without-line"])
def test_a_source_location_prints_as_path_line_column_with_what_is_known(source, text):
    assert str(source) == text


def test_a_problem_prints_its_place_severity_code_message_and_pointer_when_known():
    assert str(Problem(code="x", message="fix it")) == "error x fix it"
    assert str(Problem(code="x", message="fix it", pointer="/a/0", source=SourceLocation(path="f.yaml", line=1),
                       severity=Severity.WARNING)) == "f.yaml:1: warning x fix it [/a/0]"


def test_the_host_reports_its_findings_as_problems():
    result = plan([plugin("a", dependencies=("b",))], HostConfig(enabled=("a", "ghost")))
    assert [type(p) for p in result.problems] == [Problem, Problem]
    assert [(p.code, p.severity, p.plugins) for p in result.problems] == [
        ("plugin-not-found", Severity.WARNING, ("ghost",)), ("missing-dependency", Severity.ERROR, ("a", "b"))]
