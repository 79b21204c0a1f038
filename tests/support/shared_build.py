"""A build made once per test run, even under pytest-xdist: the first worker to need it makes it, the others reuse it.

Each xdist worker has a session of its own, so a session fixture alone would build the docs site or
the docs' sandbox once per worker. Here the build goes into the run's shared temporary folder (the
parent of the workers' own), under a file lock: the first worker builds while the others wait, then
all read the same result. Without xdist it is a plain once-per-session build. POSIX only (fcntl),
as the docs tests are.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


def shared_build(factory: pytest.TempPathFactory, name: str, build: Callable[[Path], dict[str, Any] | None]
                 ) -> tuple[Path, dict[str, Any]]:
    """The folder ``build(folder)`` filled and the JSON-able facts it returned, made once per run.

    A build that skips (``pytest.skip``) skips every test that asks for it, in every worker; one that
    raises leaves no result, so the next test to ask builds again (and fails alike).
    """
    root = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's folder: each worker's own (popen-gwN) is inside it
    folder, result = root / f"shared-{name}", root / f"shared-{name}.json"
    with open(root / f"shared-{name}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not result.exists():
            folder.mkdir(exist_ok=True)
            try:
                facts = {"built": build(folder) or {}}
            except pytest.skip.Exception as skipped:
                facts = {"skipped": str(skipped.msg)}
            result.write_text(json.dumps(facts), encoding="utf-8")
        facts = json.loads(result.read_text(encoding="utf-8"))
    if "skipped" in facts:
        pytest.skip(facts["skipped"])
    return folder, facts["built"]
