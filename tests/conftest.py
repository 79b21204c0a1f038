"""What every test of the run shares: Hypothesis profiles, the check of emitted problem codes, required installs.

Hypothesis profiles, registered here so that every folder run alone gets them (tests/reference_impl
alone too): ``ci`` (the default) is reproducible: derandomized, no example database written into the
checkout, no deadline (timing never decides a test). ``dev`` explores new examples on every run and
remembers failures; ``thorough`` is for a long local hunt. Choose one with ``--hypothesis-profile NAME``
or the ``HYPOTHESIS_PROFILE`` environment variable.

Problem codes: every Problem that PAS's own code creates during the tests has a registered code.
tests/conformance/documents/test_problem_codes.py reads the codes written in the source; this catches the
ones computed at run time. A problem made by a test itself (a made-up code) is not counted:
only problems whose maker is a frame inside conformance/ or reference_impl/.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings
from support.worker_order import SHARED_BUILDS, worker_order

from conformance.documents.codes import CODES
from reference_impl.problems import Problem

settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.register_profile("thorough", deadline=None, max_examples=2000)


def pytest_configure(config: pytest.Config) -> None:
    """Load the Hypothesis profile (``ci`` unless ``HYPOTHESIS_PROFILE`` says) unless one was chosen on the command line;
    give the Node.js processes the tests start a compile cache."""
    if not config.getoption("hypothesis_profile", default=None):
        settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
    _node_compile_cache(config)


def _node_compile_cache(config: pytest.Config) -> None:
    """Point NODE_COMPILE_CACHE (Node >= 22.1) at pytest's cache folder, unless it is set already or the cache is off.

    The host tests start Node ~55 times, most loading Mastra's or the AI SDK's modules (~0.7 s of CPU each);
    with the compiled code cached Node skips compiling it again (checked against the source, so a
    changed file is compiled afresh): ~5 s of CPU less for tests/examples' Node tests. Node without
    the feature ignores the variable. Set here, it reaches every Node process the tests start.
    """
    cache = getattr(config, "cache", None)
    if cache is not None and "NODE_COMPILE_CACHE" not in os.environ:
        os.environ["NODE_COMPILE_CACHE"] = str(cache.mkdir("node-compile-cache"))


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


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:  # type: ignore[no-untyped-def]
    """Under pytest-xdist, take in what a worker found (the workers' own sessions end without failing the run)."""
    _UNREGISTERED.update(getattr(node, "workeroutput", {}).get("pas_unregistered_codes", {}))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the session when PAS emitted a code nobody registered (a pytest-xdist worker hands them on instead)."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["pas_unregistered_codes"] = dict(_UNREGISTERED)
        return
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


# Cost markers, applied here rather than test by test (pyproject.toml registers them; --strict-markers).
# `slow`: seconds or more each: real hosts and third-party frameworks in their own venvs or under Node,
# the docs site's build and the browser on it, the docs' commands in sandboxes, wheel builds, whole
# suites or long fuzz runs in subprocesses. The inner loop leaves them out (CONTRIBUTING: -m "not slow").
# Entries are node-id prefixes: a folder, a file, or a file and a test's name.
SLOW_PATHS = (
    "tests/examples/",
    "tests/packaging/",
    "tests/docs/test_docs_commands.py",
    "tests/docs/test_docs_workflows.py",
    "tests/docs/test_disclosure_guide.py",
    "tests/conformance/tools/extract/test_extract_against_nekroagent.py",
    # the bundled suite on each single-bug fake, under every disclosure combination, pytest-xdist in a subprocess
    "tests/conformance/suite/test_attribution_fakes.py",
    "tests/conformance/suite/test_disclosure_suite.py::test_the_reference_passes_every_applicable_disclosure_scenario_under_every_combination",
    "tests/conformance/fuzz/test_fuzz_pytest_items.py::test_fuzz_items_run_under_xdist_with_two_workers",
    # the properties that drive thousands of random steps through both sides
    "tests/properties/test_fast_path_beside_the_rules.py::test_the_fast_path_gives_the_states_observations_and_text_of_the_rules",
    "tests/properties/test_reference_beside_model.py",
)


@pytest.hookimpl(tryfirst=True)  # before pytest's own -m deselection reads the marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the slow tests: by path (a file, or a file and a test's name), and every user of a shared build.

    Under pytest-xdist the files are put in the order the workers should take them (worker_order).
    """
    for item in items:
        if item.nodeid.startswith(SLOW_PATHS) or not SHARED_BUILDS.keys().isdisjoint(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items[:] = worker_order(items)
