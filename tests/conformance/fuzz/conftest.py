"""Fixtures shared by the fuzz tests."""

from __future__ import annotations

import pytest
from support.fuzz_support import FAKES


@pytest.fixture
def fakes_importable(monkeypatch):
    """Make ``python:broken_...:create`` importable, as from a checkout of the fakes."""
    monkeypatch.syspath_prepend(str(FAKES))
