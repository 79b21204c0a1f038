"""The fast path (jsonschema-rs) against jsonschema on the official JSON Schema Test Suite, draft 2020-12.

No package ships the suite and nothing downloads at test time, so this runs only where a copy is
named by ``PAS_JSON_SCHEMA_TEST_SUITE`` (a checkout of github.com/json-schema-org/JSON-Schema-Test-Suite:
its ``tests/draft2020-12`` and ``remotes``); elsewhere it is skipped. What it holds the fast path
to is the contract of :mod:`conformance.documents.fastschema`: whenever it calls an instance valid,
jsonschema (with the project's ECMA-262 patterns and format checker) calls it valid too. Cases where
jsonschema gives no verdict (it raises) are left out.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from conformance.documents.ecma import validator_class
from conformance.documents.fastschema import FastPath

SUITE = Path(os.environ.get("PAS_JSON_SCHEMA_TEST_SUITE", "/nonexistent"))
pytestmark = pytest.mark.skipif(not (SUITE / "tests" / "draft2020-12").is_dir(),
                                reason="set PAS_JSON_SCHEMA_TEST_SUITE to a JSON-Schema-Test-Suite checkout")


def _remotes() -> dict[str, object]:
    root = SUITE / "remotes"
    return {f"http://localhost:1234/{path.relative_to(root).as_posix()}": json.loads(path.read_text(encoding="utf-8"))
            for path in sorted(root.rglob("*.json"))}


def _files() -> list[Path]:
    folder = SUITE / "tests" / "draft2020-12"
    return sorted(folder.rglob("*.json")) if folder.is_dir() else []


@pytest.mark.parametrize("path", _files(), ids=lambda path: path.stem)
def test_the_fast_path_never_calls_valid_what_jsonschema_rejects(path: Path) -> None:
    remotes = _remotes()
    disagreements = []
    for group in json.loads(path.read_text(encoding="utf-8")):
        schema = group["schema"]
        uri = schema.get("$id", "") if isinstance(schema, dict) else ""
        registry = Registry().with_resources(
            (u, Resource.from_contents(c, default_specification=DRAFT202012)) for u, c in remotes.items())
        registry = registry.with_resource(uri, Resource.from_contents(schema, default_specification=DRAFT202012)).crawl()
        fast = FastPath({**{u: registry.contents(u) for u in registry}, uri: schema})
        slow = validator_class()(schema, registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER)
        for test in group["tests"]:
            try:
                verdict = slow.is_valid(test["data"])
            except Exception:  # noqa: BLE001 - jsonschema gives no verdict (a loop, an unresolvable ref): nothing to hold to
                continue
            if fast.certainly_valid(uri, test["data"]) and not verdict:
                disagreements.append(f"{group['description']}: {test['description']}")
    assert disagreements == []
