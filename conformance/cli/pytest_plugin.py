"""pytest plugin: the PAS conformance suite and fuzz campaigns as pytest tests.

    pytest --pas-impl=IMPL [--pas-impl=IMPL2 ...] [--pas-scenario PATH ...] [--pas-profile P ...]
           [--pas-expected-failures FILE] [--pas-timeout SECONDS] [-m pas]
           [--pas-fuzz-seeds N [--pas-fuzz-seed S] [--pas-fuzz-examples M] [--pas-fuzz-out DIR]] [-m pas_fuzz]

IMPL is what ``pas run --impl`` takes. Each scenario becomes the item ``pas::<scenario-id>``
(marked ``pas``); with several ``--pas-impl``, ``pas[1]::<id>``, ``pas[2]::<id>`` ... in
the order given. ``--pas-fuzz-seeds N`` adds N fuzz items per implementation,
``pas-fuzz::seed-<S+i>`` (marked ``pas_fuzz``), each one ``pas fuzz --seed S+i
--max-examples M`` on its own. Every item is independent of the others (each worker of
pytest-xdist makes its own adapters), so ``-n auto`` or ``--tx`` spread them over cores
and machines; ``-k``, ``-m`` and ``--junitxml`` work as usual. A failure shows the same
readable diff as ``pas run`` (or the summary of ``pas fuzz``, whose scenario file goes to
``--pas-fuzz-out`` when given). Scenarios needing an unclaimed profile are skipped; listed
expected failures are strict xfails (a pass fails the run) for every implementation.
Without ``--pas-impl`` the plugin does nothing. The plugin is registered through the
``pytest11`` entry point, so installing the package is enough.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from conformance.adapters.implementation import DEFAULT_STEP_TIMEOUT

_STATE = pytest.StashKey["_Pas"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """Register the ``--pas-*`` options."""
    from reference_impl.model import Profile

    group = parser.getgroup("pas", "PAS conformance suite")
    group.addoption("--pas-impl", action="append", default=[], metavar="IMPL",
                    help="run the PAS suite against IMPL: reference, python:MODULE:FACTORY or 'cmd:COMMAND ARGS' "
                         "(repeatable)")
    group.addoption("--pas-scenario", action="append", default=[], metavar="PATH",
                    help="PAS scenario file or folder (repeatable; default: the bundled suite)")
    group.addoption("--pas-profile", action="append", choices=tuple(p.value for p in Profile), metavar="PROFILE",
                    help="test only these PAS profiles (repeatable; default: all the implementation claims)")
    group.addoption("--pas-expected-failures", metavar="FILE", help="YAML mapping of scenario id to why it fails")
    group.addoption("--pas-timeout", type=float, default=DEFAULT_STEP_TIMEOUT, metavar="SECONDS",
                    help=f"per-step timeout for cmd: implementations (default: {DEFAULT_STEP_TIMEOUT:g})")
    group.addoption("--pas-fuzz-seeds", type=int, default=0, metavar="N",
                    help="add N fuzz items per implementation, one seed each (default: 0, none)")
    group.addoption("--pas-fuzz-seed", type=int, default=0, metavar="S", help="the first fuzz seed (default: 0)")
    group.addoption("--pas-fuzz-examples", type=int, default=500, metavar="M",
                    help="generated cases per fuzz item (default: 500)")
    group.addoption("--pas-fuzz-out", metavar="DIR", help="write each fuzz finding as a scenario file into DIR")


class _Target:
    """One implementation under test: its adapter, made at configure time, said hello to once."""

    def __init__(self, impl: str, *, timeout: float, profiles: Any) -> None:
        from conformance.adapters.select import BadImplementation, adapter_for

        self.impl, self.profiles_requested = impl, profiles
        try:
            self.adapter = adapter_for(impl, timeout=timeout)
        except BadImplementation as error:
            raise pytest.UsageError(str(error)) from None
        self._hello: tuple[Any, Any] | None = None
        self.declared: Any = None  # the disclosure options it declares, with that profile under test

    def hello(self) -> tuple[Any, Any]:
        """``(profiles under test, None)`` or ``(None, errored result detail)``, asked once."""
        if self._hello is None:
            from conformance.suite.runner import effective_profiles, greet

            info, error = greet(self.adapter)
            in_play = effective_profiles(info, self.profiles_requested)
            self._hello = (in_play, None) if error is None else (None, error)
            if info is not None and "disclosure" in in_play:
                self.declared = info.disclosure_options
        return self._hello

    def close(self) -> None:
        """Say goodbye to the implementation; a failure to do so is not the tests' business."""
        try:
            self.adapter.close()
        except Exception:  # noqa: BLE001 - a goodbye that fails is not the tests' business
            pass


class _Pas:
    """The session's suite and implementations (one :class:`_Target` per ``--pas-impl``)."""

    def __init__(self, config: pytest.Config) -> None:
        from conformance.suite.expected_failures import load_expected_failures
        from conformance.suite.runner import select_scenarios
        from conformance.suite.scenario import load_suite

        profiles = config.getoption("pas_profile")
        scenarios, problems = load_suite(config.getoption("pas_scenario"))
        if problems:
            raise pytest.UsageError("\n".join(f"--pas-scenario: {p}" for p in problems))
        self.expected: Mapping[str, str] = {}
        if config.getoption("pas_expected_failures"):
            self.expected, problems = load_expected_failures(config.getoption("pas_expected_failures"),
                                                             {s.id for s in scenarios})
            if problems:
                raise pytest.UsageError("\n".join(f"--pas-expected-failures: {p}" for p in problems))
        self.scenarios = select_scenarios(scenarios, profiles=profiles)
        if config.getoption("pas_fuzz_seeds") < 0 or config.getoption("pas_fuzz_examples") < 1:
            raise pytest.UsageError("--pas-fuzz-seeds must be >= 0 and --pas-fuzz-examples >= 1")
        self.targets = [_Target(impl, timeout=config.getoption("pas_timeout"), profiles=profiles)
                        for impl in config.getoption("pas_impl")]

    def close(self) -> None:
        """Say goodbye to every implementation."""
        for target in self.targets:
            target.close()


def pytest_configure(config: pytest.Config) -> None:
    """With ``--pas-impl``: load the suite, choose the adapter, register the ``pas`` marker."""
    if not config.getoption("pas_impl", None):
        return
    config.addinivalue_line("markers", "pas: a PAS conformance scenario")
    config.addinivalue_line("markers", "pas_fuzz: a PAS fuzz campaign (one seed)")
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
    """The collector holding one implementation's scenario items (node id ``pas`` or ``pas[N]``)."""

    def __init__(self, *, target: _Target, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.target = target

    def collect(self) -> list[pytest.Item]:
        """One item per selected scenario."""
        state = self.config.stash[_STATE]
        items: list[pytest.Item] = []
        for scenario in state.scenarios:
            item = ScenarioItem.from_parent(self, name=scenario.id, path=Path(scenario.path), scenario=scenario,
                                            target=self.target)
            item.add_marker(pytest.mark.pas)
            if scenario.id in state.expected:
                item.add_marker(pytest.mark.xfail(reason=state.expected[scenario.id], strict=True,
                                                  raises=ScenarioFailed))
            items.append(item)
        return items


class FuzzCampaign(pytest.Collector):
    """The collector holding one implementation's fuzz items (node id ``pas-fuzz`` or ``pas-fuzz[N]``)."""

    def __init__(self, *, target: _Target, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.target = target

    def collect(self) -> list[pytest.Item]:
        """One item per seed: ``--pas-fuzz-seed`` and the ``--pas-fuzz-seeds - 1`` after it."""
        first, count = self.config.getoption("pas_fuzz_seed"), self.config.getoption("pas_fuzz_seeds")
        items: list[pytest.Item] = []
        for seed in range(first, first + count):
            item = FuzzItem.from_parent(self, name=f"seed-{seed}", seed=seed, target=self.target)
            item.add_marker(pytest.mark.pas_fuzz)
            items.append(item)
        return items


class ScenarioItem(pytest.Item):
    """One scenario run against the session's implementation."""

    def __init__(self, *, scenario: Any, target: _Target, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario, self.target = scenario, target

    def runtest(self) -> None:
        """Run the scenario; skip, or raise ScenarioFailed with the result."""
        from conformance.suite.results import Outcome
        from conformance.suite.runner import errored, run_scenario

        profiles, error = self.target.hello()
        if error is not None:
            raise ScenarioFailed(errored(self.scenario, error))
        result = run_scenario(self.target.adapter, self.scenario, profiles=profiles, declared=self.target.declared)
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


class FuzzFound(Exception):
    """Raised by a fuzz item that found a disagreement, an error or a failed hello; carries the summary."""

    def __init__(self, summary: str) -> None:
        super().__init__(summary)
        self.summary = summary


class FuzzItem(pytest.Item):
    """One fuzz campaign (one seed) against one implementation, as ``pas fuzz --seed`` runs it."""

    def __init__(self, *, seed: int, target: _Target, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seed, self.target = seed, target

    def runtest(self) -> None:
        """Fuzz; raise FuzzFound with the summary (and write the scenario file) when something is found."""
        from conformance.fuzz.report import render
        from conformance.fuzz.search import FuzzOptions, fuzz
        from conformance.fuzz.session import write_finding

        config, target = self.config, self.target
        options = FuzzOptions(max_examples=config.getoption("pas_fuzz_examples"), seed=self.seed,
                              profiles=target.profiles_requested)
        result = fuzz(target.adapter, options)
        if not result.found:
            return
        out = config.getoption("pas_fuzz_out")
        if out:
            raise FuzzFound(write_finding(result, target.adapter, impl=target.impl, out_dir=out))
        raise FuzzFound(render(result, impl=target.impl))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        """The summary ``pas fuzz`` prints."""
        if isinstance(excinfo.value, FuzzFound):
            return excinfo.value.summary.rstrip()
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[str, int | None, str]:
        """The campaign, for pytest's report headers."""
        return self.nodeid, None, f"pas fuzz --impl {self.target.impl} --seed {self.seed}"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Add the scenario and fuzz items before ``-k`` and ``-m`` deselect (hence ``tryfirst``)."""
    state = config.stash.get(_STATE, None)
    if state is None:
        return
    several = len(state.targets) > 1
    for number, target in enumerate(state.targets, start=1):
        suffix = f"[{number}]" if several else ""
        suite = PasSuite.from_parent(session, name=f"pas{suffix}", nodeid=f"pas{suffix}", target=target)
        items.extend(suite.collect())
        if config.getoption("pas_fuzz_seeds"):
            campaign = FuzzCampaign.from_parent(session, name=f"pas-fuzz{suffix}", nodeid=f"pas-fuzz{suffix}",
                                                target=target)
            items.extend(campaign.collect())
