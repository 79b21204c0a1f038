"""The host-neutral driver_protocol.py and scripted_driver.py are the same files beside each host's driver.

Each driver runs in its own host venv and imports the copy beside it; the copies must not drift, or
the two hosts would answer the same command differently. No host venv needed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


@pytest.mark.parametrize("name", ["driver_protocol.py", "scripted_driver.py"])
def test_the_copies_are_identical(name):
    copies = {path.parent.name: path.read_bytes() for path in sorted(EXAMPLES.glob(f"*/{name}"))}
    assert set(copies) >= {"agent-framework", "langgraph-bigtool"}
    assert len(set(copies.values())) == 1, f"{name} differs between {sorted(copies)}"
