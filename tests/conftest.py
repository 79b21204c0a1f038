"""Session-wide check: every Problem that PAS's own code creates during the tests has a registered code.

tests/conformance/documents/test_problem_codes.py reads the codes written in the source; this catches the
ones computed at run time. A problem made by a test itself (a made-up code) is not counted:
only problems whose maker is a frame inside conformance/ or reference_impl/.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from conformance.documents.codes import CODES
from reference_impl.problems import Problem

_PACKAGES = tuple(str(Path(__file__).resolve().parents[1] / name) for name in ("conformance", "reference_impl"))
_UNREGISTERED: dict[str, str] = {}
_original_init = Problem.__init__


def _maker() -> str | None:
    """Where the problem was made: the first frame outside dataclasses and this file, if it is PAS's code."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.endswith(("dataclasses.py", "conftest.py")):
        frame = frame.f_back
    if frame is None or not frame.f_code.co_filename.startswith(_PACKAGES):
        return None
    return f"{frame.f_code.co_filename}:{frame.f_lineno}"


def _recording_init(self: Problem, *args: object, **kwargs: object) -> None:
    _original_init(self, *args, **kwargs)
    if self.code not in CODES and self.code not in _UNREGISTERED:
        where = _maker()
        if where is not None:
            _UNREGISTERED[self.code] = where


Problem.__init__ = _recording_init  # type: ignore[method-assign]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the session when PAS emitted a code nobody registered."""
    if _UNREGISTERED:
        listed = ", ".join(f"{code} ({where})" for code, where in sorted(_UNREGISTERED.items()))
        sys.stderr.write(f"\nunregistered problem codes emitted (add them to conformance/documents/codes.py): {listed}\n")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


_REQUIRED = {
    # env var: words of the skip reasons it turns into failures (CI installs these, so a skip there hides a gap)
    "PAS_REQUIRE_NEKRO": ("nekroagent", "nekro-agent"),
    "PAS_REQUIRE_MAF": ("install-agent-framework",),
    "PAS_REQUIRE_BIGTOOL": ("install-bigtool",),
    "PAS_REQUIRE_NODE_HOSTS": ("install-mastra.sh", "install-ai-sdk.sh"),
}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    """With PAS_REQUIRE_NEKRO, _MAF, _BIGTOOL or _NODE_HOSTS=1 (as in .ci/run), a skip for a missing install fails instead."""
    outcome = yield
    report = outcome.get_result()
    if not report.skipped:
        return
    reason = str(report.longrepr[-1] if isinstance(report.longrepr, tuple) else report.longrepr).lower()
    for variable, words in _REQUIRED.items():
        if os.environ.get(variable) == "1" and any(word in reason for word in words):
            report.outcome = "failed"
            report.longrepr = f"{variable}=1 but the test was skipped: {reason}"
