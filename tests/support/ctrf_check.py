"""Checks a CTRF document against what the CTRF specification requires (ctrf-required.schema.yaml)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import yaml

SCHEMA = yaml.safe_load((Path(__file__).resolve().parents[1] / "conformance" / "report" / "ctrf" / "ctrf-required.schema.yaml").read_text(encoding="utf-8"))


def ctrf_problems(text: str) -> list[str]:
    """Every way ``text`` breaks the specification's rules, plus the summary's counts checked against its tests."""
    document = json.loads(text)
    validator = jsonschema.Draft7Validator(SCHEMA, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    problems = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]
    if problems:
        return problems
    results = document["results"]
    summary, tests = results["summary"], results["tests"]
    if summary["tests"] != len(tests):  # 8.1: SHOULD equal the length of tests
        problems.append(f"summary.tests is {summary['tests']}, the tests array has {len(tests)}")
    for status in ("passed", "failed", "skipped", "pending", "other"):  # 8.2-8.6: the count of each status
        if summary[status] != sum(t["status"] == status for t in tests):
            problems.append(f"summary.{status} does not count the tests with that status")
    if summary["stop"] < summary["start"]:  # 8.10
        problems.append("summary.stop is before summary.start")
    return problems
