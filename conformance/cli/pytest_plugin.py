"""pytest plugin: the PAS conformance suite as pytest tests, one item per scenario.

    pytest --pas-impl=IMPL [--pas-scenario PATH ...] [--pas-profile P ...]
           [--pas-expected-failures FILE] [--pas-timeout SECONDS] [-m pas]

IMPL is what ``pas run --impl`` takes. Each scenario becomes the item ``pas::<scenario-id>``
(marked ``pas``), so ``-k``, ``-m pas``, ``--junitxml`` and pytest-xdist work as usual;
a failure shows the same readable diff as ``pas run``. Scenarios needing an unclaimed
profile are skipped; listed expected failures are strict xfails (a pass fails the run).
Without ``--pas-impl`` the plugin does nothing. The plugin is registered through the
``pytest11`` entry point, so installing the package is enough.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance.adapters.implementation import DEFAULT_STEP_TIMEOUT

_STATE = pytest.StashKey["_Pas"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """Register the ``--pas-*`` options."""
    group = parser.getgroup("pas", "PAS conformance suite")
    group.addoption("--pas-impl", metavar="IMPL",
                    help="run the PAS suite against IMPL: reference, python:MODULE:FACTORY or 'cmd:COMMAND ARGS'")
    group.addoption("--pas-scenario", action="append", default=[], metavar="PATH",
                    help="PAS scenario file or folder (repeatable; default: the bundled suite)")
    group.addoption("--pas-profile", action="append", choices=("activation", "text", "host"), metavar="PROFILE",
                    help="test only these PAS profiles (repeatable; default: all the implementation claims)")
    group.addoption("--pas-expected-failures", metavar="FILE", help="YAML mapping of scenario id to why it fails")
    group.addoption("--pas-timeout", type=float, default=DEFAULT_STEP_TIMEOUT, metavar="SECONDS",
                    help=f"per-step timeout for cmd: implementations (default: {DEFAULT_STEP_TIMEOUT:g})")


class _Pas:
    """The session's implementation: its adapter, made at configure time, said hello to once."""

    def __init__(self, config: pytest.Config) -> None:
        from conformance.adapters.select import BadImplementation, adapter_for
        from conformance.suite.expected_failures import load_expected_failures
        from conformance.suite.runner import select_scenarios
        from conformance.suite.scenario import load_suite

        self.profiles_requested = config.getoption("pas_profile")
        scenarios, problems = load_suite(config.getoption("pas_scenario"))
        if problems:
            raise pytest.UsageError("\n".join(f"--pas-scenario: {p}" for p in problems))
        self.expected: dict[str, str] = {}
        if config.getoption("pas_expected_failures"):
            self.expected, problems = load_expected_failures(config.getoption("pas_expected_failures"),
                                                             {s.id for s in scenarios})
            if problems:
                raise pytest.UsageError("\n".join(f"--pas-expected-failures: {p}" for p in problems))
        self.scenarios = select_scenarios(scenarios, profiles=self.profiles_requested)
        try:
            self.adapter = adapter_for(config.getoption("pas_impl"), timeout=config.getoption("pas_timeout"))
        except BadImplementation as error:
            raise pytest.UsageError(str(error)) from None
        self._hello: tuple[Any, Any] | None = None

    def hello(self) -> tuple[Any, Any]:
        """``(profiles under test, None)`` or ``(None, errored result detail)``, asked once."""
        if self._hello is None:
            from conformance.suite.runner import effective_profiles, greet

            info, error = greet(self.adapter)
            self._hello = (effective_profiles(info, self.profiles_requested), None) if error is None else (None, error)
        return self._hello

    def close(self) -> None:
        """Say goodbye to the implementation; a failure to do so is not the tests' business."""
        try:
            self.adapter.close()
        except Exception:  # noqa: BLE001
            pass


def pytest_configure(config: pytest.Config) -> None:
    """With ``--pas-impl``: load the suite, choose the adapter, register the ``pas`` marker."""
    if not config.getoption("pas_impl", None):
        return
    config.addinivalue_line("markers", "pas: a PAS conformance scenario")
    config.stash[_STATE] = _Pas(config)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Close the implementation."""
    state = config.stash.get(_STATE, None)
    if state is not None:
        state.close()


class ScenarioFailed(Exception):
    """Raised by a scenario item that failed or errored; carries the result for the report."""

    def __init__(self, result: Any) -> None:
        super().__init__(result.id)
        self.result = result


class PasSuite(pytest.Collector):
    """The collector holding every scenario item (node id ``pas``)."""

    def collect(self) -> list[pytest.Item]:
        """One item per selected scenario."""
        state = self.config.stash[_STATE]
        items = []
        for scenario in state.scenarios:
            item = ScenarioItem.from_parent(self, name=scenario.id, path=Path(scenario.path), scenario=scenario)
            item.add_marker(pytest.mark.pas)
            if scenario.id in state.expected:
                item.add_marker(pytest.mark.xfail(reason=state.expected[scenario.id], strict=True,
                                                  raises=ScenarioFailed))
            items.append(item)
        return items


class ScenarioItem(pytest.Item):
    """One scenario run against the session's implementation."""

    def __init__(self, *, scenario: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario

    def runtest(self) -> None:
        """Run the scenario; skip, or raise ScenarioFailed with the result."""
        from conformance.suite.results import Outcome
        from conformance.suite.runner import errored, run_scenario

        state = self.config.stash[_STATE]
        profiles, error = state.hello()
        if error is not None:
            raise ScenarioFailed(errored(self.scenario, error))
        result = run_scenario(state.adapter, self.scenario, profiles=profiles)
        if result.outcome is Outcome.SKIPPED:
            pytest.skip(result.reason)
        if result.outcome is not Outcome.PASSED:
            raise ScenarioFailed(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        """The readable expected-vs-actual diff of ``pas run`` for a scenario failure."""
        if isinstance(excinfo.value, ScenarioFailed):
            from conformance.report.text import failure_text

            result = excinfo.value.result
            return f"{result.outcome.value}: {result.id}: {result.title}\n{failure_text(result)}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        """Where the scenario is written, for pytest's report headers."""
        return self.path, 0, f"pas scenario {self.scenario.id}"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Add the scenario items before ``-k`` and ``-m`` deselect (hence ``tryfirst``)."""
    if config.stash.get(_STATE, None) is None:
        return
    suite = PasSuite.from_parent(session, name="pas", nodeid="pas")
    items.extend(suite.collect())
