"""The order pytest-xdist's workers take the test files in (tests/conftest.py applies it under xdist)."""

from __future__ import annotations

import pytest

# Builds shared by a whole run (session fixtures made once for all pytest-xdist workers, support.shared_build),
# each fixture with the build it waits for: a test that uses one is slow.
SHARED_BUILDS = {"site_build": "site", "built_site": "site", "wheelhouse": "sandbox", "user_venv": "sandbox"}


def worker_order(items: list[pytest.Item]) -> list[pytest.Item]:
    """The items, slow files first, and among those a shared build's later users after every other slow file.

    The workers take files in collection order: a long file taken last would leave the other worker
    idle at the end, and two files taken at once that need the same build would leave one worker
    waiting for the other to make it (the site's build, ~20 s). So the first user of each build
    goes where it was, and the others once every other slow file is handed out, when it is made.
    Each file's own order is kept.
    """
    builds_of: dict[object, set[str]] = {}
    for item in items:
        if item.get_closest_marker("slow") is not None:
            builds = builds_of.setdefault(item.path, set())
            builds.update(SHARED_BUILDS[name] for name in getattr(item, "fixturenames", ()) if name in SHARED_BUILDS)
    claimed: set[str] = set()
    later = set()
    for path, builds in builds_of.items():  # in collection order
        if builds & claimed:
            later.add(path)
        claimed |= builds
    return sorted(items, key=lambda item: 2 if item.path not in builds_of else 1 if item.path in later else 0)
