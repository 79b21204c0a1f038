"""PAS conformance toolkit: run the suite, validate documents and fuzz, from Python as from ``pas``.

The public API is the names in ``__all__``, and only those: import them from the package
(``from conformance import load_suite, adapter_for, run_suite``). Every submodule
(``conformance.suite``, ``conformance.adapters`` ...) is internal and may change in any release,
even when a name can be reached through it. The values an implementation reads and returns
(manifests, events, observations) are ``reference_impl``'s public names.

Running the suite::

    from conformance import adapter_for, load_suite, run_suite

    scenarios, problems = load_suite()  # the bundled suite; paths for your own
    adapter = adapter_for("python:myframework.pas:create")  # or "reference", or "cmd:./my-scheduler"
    try:
        run = run_suite(adapter, scenarios)
    finally:
        adapter.close()

``Scheduler`` and ``Host`` are the protocols a Python implementation satisfies; ``check_paths``
validates manifests and host configs; ``run_fuzz`` and ``scheduler_state_machine`` compare an
implementation with the reference on random sequences of events. A name is imported the first
time it is used (``reference_impl.exports``), so ``import conformance`` costs nothing.
"""

from reference_impl.exports import lazy_exports

TYPE_CHECKING = False  # typing.TYPE_CHECKING would import typing, which costs more than the rest

# Public name -> the module that defines it: one line per name. Adding a name is its line here
# and the same name in the typing import below (tests/test_public_api.py fails on a name in one only).
_EXPORTS = {
    # Run the suite: load it, pick an adapter, run, read the results.
    "load_suite": ".suite.scenario",
    "Scenario": ".suite.scenario",
    "select_scenarios": ".suite.runner",
    "BadKeyword": ".suite.keywords",
    "load_expected_failures": ".suite.expected_failures",
    "adapter_for": ".adapters.select",
    "BadImplementation": ".adapters.select",
    "InProcessAdapter": ".adapters.inprocess",
    "run_suite": ".suite.runner",
    "RunLimits": ".suite.runner",
    "RunResult": ".suite.results",
    "ScenarioResult": ".suite.results",
    "Outcome": ".suite.results",
    "StepFailure": ".suite.results",
    "Mismatch": ".suite.expectations",
    "ErrorDetail": ".suite.results",
    "Stop": ".suite.results",
    "StopKind": ".suite.results",
    "Summary": ".suite.results",
    "Requirement": ".suite.results",
    "RequirementTally": ".suite.results",
    "RequirementStatus": ".suite.results",
    # What an implementation satisfies, and how its failures are reported.
    "Scheduler": ".adapters.implementation",
    "Host": ".adapters.implementation",
    "Adapter": ".adapters.implementation",
    "ImplementationFailed": ".adapters.implementation",
    "FailureKind": ".adapters.implementation",
    "InFlight": ".adapters.implementation",
    "Sent": ".adapters.implementation",
    "UnusableImplementation": ".adapters.interface",
    # Validate manifests and host configs.
    "check_paths": ".validate.check",
    "Validation": ".validate.check",
    # Fuzz against the reference (scheduler_state_machine needs Hypothesis: the fuzz extra).
    "run_fuzz": ".fuzz.search:fuzz",
    "FuzzOptions": ".fuzz.search",
    "FuzzResult": ".fuzz.search",
    "Finding": ".fuzz.search",
    "write_finding": ".fuzz.session",
    "scheduler_state_machine": ".fuzz.stateful",
}

__all__ = list(_EXPORTS)

if TYPE_CHECKING:  # what type checkers and the API docs read: the same names, imported at once
    from conformance.adapters.implementation import Adapter as Adapter
    from conformance.adapters.implementation import FailureKind as FailureKind
    from conformance.adapters.implementation import Host as Host
    from conformance.adapters.implementation import ImplementationFailed as ImplementationFailed
    from conformance.adapters.implementation import InFlight as InFlight
    from conformance.adapters.implementation import Scheduler as Scheduler
    from conformance.adapters.implementation import Sent as Sent
    from conformance.adapters.inprocess import InProcessAdapter as InProcessAdapter
    from conformance.adapters.interface import UnusableImplementation as UnusableImplementation
    from conformance.adapters.select import BadImplementation as BadImplementation
    from conformance.adapters.select import adapter_for as adapter_for
    from conformance.fuzz.search import Finding as Finding
    from conformance.fuzz.search import FuzzOptions as FuzzOptions
    from conformance.fuzz.search import FuzzResult as FuzzResult
    from conformance.fuzz.search import fuzz as _fuzz
    from conformance.fuzz.session import write_finding as write_finding
    from conformance.fuzz.stateful import scheduler_state_machine as scheduler_state_machine
    from conformance.suite.expectations import Mismatch as Mismatch
    from conformance.suite.expected_failures import load_expected_failures as load_expected_failures
    from conformance.suite.keywords import BadKeyword as BadKeyword
    from conformance.suite.results import ErrorDetail as ErrorDetail
    from conformance.suite.results import Outcome as Outcome
    from conformance.suite.results import Requirement as Requirement
    from conformance.suite.results import RequirementStatus as RequirementStatus
    from conformance.suite.results import RequirementTally as RequirementTally
    from conformance.suite.results import RunResult as RunResult
    from conformance.suite.results import ScenarioResult as ScenarioResult
    from conformance.suite.results import StepFailure as StepFailure
    from conformance.suite.results import Stop as Stop
    from conformance.suite.results import StopKind as StopKind
    from conformance.suite.results import Summary as Summary
    from conformance.suite.runner import RunLimits as RunLimits
    from conformance.suite.runner import run_suite as run_suite
    from conformance.suite.runner import select_scenarios as select_scenarios
    from conformance.suite.scenario import Scenario as Scenario
    from conformance.suite.scenario import load_suite as load_suite
    from conformance.validate.check import Validation as Validation
    from conformance.validate.check import check_paths as check_paths

    run_fuzz = _fuzz  # a name of its own: conformance.fuzz is the subpackage
else:
    __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS,
                                        installs={"hypothesis": "pip install hypothesis (PAS's fuzz extra)"})
