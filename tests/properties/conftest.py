"""Hypothesis profiles for the property tests.

``ci`` (the default) is reproducible: derandomized, no example database written into the
checkout, no deadline (timing never decides a test). ``dev`` explores new examples on every
run and remembers failures; ``thorough`` is for a long local hunt. Choose one with
``--hypothesis-profile NAME`` or the ``HYPOTHESIS_PROFILE`` environment variable.
Hypothesis settings are process-wide, so the chosen profile is the default of every
Hypothesis test in the run, not only of the ones in this folder.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.register_profile("thorough", deadline=None, max_examples=2000)


def pytest_configure(config) -> None:
    """Load the profile unless one was chosen on the command line."""
    if not config.getoption("hypothesis_profile", default=None):
        settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
