"""Fixtures of every stdio adapter test here."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.stdio_support import gone_soon

from conformance.adapters import stdio


@pytest.fixture(autouse=True)
def nothing_left_running(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every implementation process a test spawns is gone when it ends."""
    spawned: list[int] = []

    class Recorded(stdio._Process):
        def __init__(self, *args: object) -> None:
            super().__init__(*args)
            spawned.append(self.popen.pid)

    monkeypatch.setattr(stdio, "_Process", Recorded)
    yield spawned
    assert [pid for pid in spawned if not gone_soon(pid)] == []
