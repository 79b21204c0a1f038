"""The hostile and the valid corpus: each file reports exactly the codes and lines in expected.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from conformance.cli.exit_status import validation_exit_code
from conformance.documents.loader import Limits
from conformance.validate.check import Settings, check_paths
from conformance.validate.suppress import Config

CORPUS = Path(__file__).resolve().parent / "corpus"
EXPECTED = yaml.safe_load((CORPUS / "expected.yaml").read_text(encoding="utf-8"))


def _corpus_files() -> set[str]:
    return {p.name for p in CORPUS.iterdir() if p.is_file() and not p.name.startswith(".") and p.name != "expected.yaml"}


def test_every_corpus_file_has_expectations_and_every_expectation_a_file():
    assert _corpus_files() == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_file_reports_exactly_the_expected_codes_and_lines(name):
    entry = EXPECTED[name]
    settings = Settings(config=Config(limits=Limits(**entry.get("limits", {}))))
    outcome = check_paths([str(CORPUS / name)], settings)
    found = [{"code": p.code, "line": p.source.line} for p in outcome.problems]
    assert found == entry["problems"]
    assert all(p.source.column is not None for p in outcome.problems)


def test_valid_corpus_checked_together_as_one_set_is_clean():
    valid = [str(CORPUS / name) for name in sorted(EXPECTED) if name.startswith("valid-")]
    outcome = check_paths(valid)
    assert outcome.problems == ()
    assert (outcome.files, outcome.documents, validation_exit_code(outcome)) == (6, 7, 0)
