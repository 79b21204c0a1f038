"""The host-neutral driver_protocol.py is the same file beside each host's driver.

Each driver runs in its own host venv and imports the copy beside it; the copies must not drift, or
the two hosts would answer the same command differently. No host venv needed.
"""

from __future__ import annotations

from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def test_the_copies_are_identical():
    copies = {path.parent.name: path.read_bytes() for path in sorted(EXAMPLES.glob("*/driver_protocol.py"))}
    assert set(copies) >= {"agent-framework", "langgraph-bigtool"}
    assert len(set(copies.values())) == 1, f"driver_protocol.py differs between {sorted(copies)}"
