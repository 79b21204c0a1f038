"""The exceptions PAS raises on purpose: their fields, their messages and their one root."""

from __future__ import annotations

import pytest

from reference_impl import spec_files
from reference_impl.errors import MalformedDocument, PasError, SpecFilesMissing


def test_a_malformed_document_names_the_bad_field():
    error = MalformedDocument(field="counters", reason="must map conversations to {module: integer 0..20}")
    assert (error.field, error.reason) == ("counters", "must map conversations to {module: integer 0..20}")
    assert str(error) == "field 'counters' must map conversations to {module: integer 0..20}"
    assert isinstance(error, PasError) and isinstance(error, ValueError)


def test_a_malformed_document_without_a_field_is_about_the_whole_document():
    assert str(MalformedDocument(field="", reason="must be a mapping")) == "document must be a mapping"


def test_the_errors_take_their_data_by_keyword_only():
    with pytest.raises(TypeError):
        MalformedDocument("counters", "must be a mapping")  # type: ignore[misc]
    with pytest.raises(TypeError):
        SpecFilesMissing(("a",))  # type: ignore[misc]


def test_missing_spec_files_say_where_they_were_looked_for(monkeypatch, tmp_path):
    """A broken installation: neither the wheel's copy nor the checkout's has semantics.yaml."""
    candidates = (tmp_path / "_spec", tmp_path / "spec")
    monkeypatch.setattr(spec_files, "_CANDIDATES", candidates)
    spec_files.spec_dir.cache_clear()
    try:
        with pytest.raises(SpecFilesMissing) as caught:
            spec_files.spec_dir()
    finally:
        spec_files.spec_dir.cache_clear()
    assert caught.value.searched == tuple(str(c) for c in candidates)
    assert str(caught.value) == f"PAS spec files not found; looked in: {candidates[0]}, {candidates[1]}"
    assert isinstance(caught.value, PasError) and isinstance(caught.value, FileNotFoundError)
    monkeypatch.undo()
    assert (spec_files.spec_dir() / "semantics.yaml").is_file()
