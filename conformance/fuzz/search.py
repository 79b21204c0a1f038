"""The search: Hypothesis generates cases until one disagrees, then the disagreement is shrunk.

A ``@given`` property is built and called programmatically, with an explicit seed, no
example database, no deadline and quiet output. The first case that disagrees ends the
generation; it is then shrunk by :mod:`conformance.fuzz.minimise`,
a greedy pass that knows what a case is made of. Hypothesis' own shrinker is not used: each
of its attempts re-draws a whole case through Hypothesis, which costs far more than
replaying the few steps of a case, and a replay of a hanging implementation costs a whole
timeout. The greedy pass is deterministic, so ``--seed`` reproduces the emitted file.
Nothing here raises for the implementation's faults; Ctrl-C ends the search with what was
found.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass

from conformance.fuzz.case import Case
from conformance.fuzz.compare import Disagreement, Verdict, compare_case
from conformance.fuzz.minimise import minimise
from conformance.fuzz.strategies import MAX_STEPS, cases
from conformance.adapters.implementation import Adapter
from conformance.suite.results import ErrorDetail
from conformance.suite.runner import effective_profiles, greet
from reference_impl.engine import Engine
from reference_impl.model import ImplementationInfo, Profile

ProgressCallback = Callable[..., None]  # (examples, steps, *, shrinking) -> None


class _Stop(BaseException):
    """Ends the Hypothesis search early: the time budget is spent, or an errored case was found.

    A BaseException, so that Hypothesis lets it through instead of replaying the case.
    """


class _Disagrees(Exception):
    """Raised inside the property for a disagreeing case, so that Hypothesis ends the generation."""


@dataclass(frozen=True, slots=True, kw_only=True)
class FuzzOptions:
    """How long and how to search.

    ``seed`` None picks a random seed (reported, so the run can be repeated); ``time_budget``
    bounds the search for a first disagreement and ``shrink_budget`` the shrinking after it
    (seconds; the shrinking is deterministic unless it runs out of time); ``profiles`` narrows
    what is compared, as for ``pas run``. There is no example database: a seeded run is
    reproducible anyway, and the scenario file written for a finding is the lasting record.
    """

    max_examples: int = 500
    seed: int | None = None
    time_budget: float | None = None
    shrink_budget: float = 60.0
    profiles: Collection[str] | None = None
    max_steps: int = MAX_STEPS
    order: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """A shrunk disagreeing case, cut after its differing step, and how it disagrees.

    ``reproducible`` is False when replaying the case no longer disagreed (a flaky
    implementation); the case is then the one first seen, unshrunk.
    """

    case: Case
    disagreement: Disagreement
    original_steps: int
    reproducible: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class FuzzResult:
    """A whole fuzz run: who was tested, what was searched, and the finding if any.

    ``hello_error`` is set when the implementation failed before any case could run.
    """

    info: ImplementationInfo | None
    seed: int
    text: bool
    examples: int = 0
    steps: int = 0
    duration: float = 0.0
    finding: Finding | None = None
    hello_error: ErrorDetail | None = None
    interrupted: bool = False

    @property
    def steps_per_second(self) -> float:
        """Steps sent to the implementation per second of the whole run."""
        return self.steps / self.duration if self.duration > 0 else 0.0

    @property
    def exit_code(self) -> int:
        """FAILED when something was found (a disagreement or an error), SIGINT when interrupted, else OK.

        ``pas fuzz`` replaces SIGINT by the signal that actually stopped it (128 + signum).
        """
        from conformance.exit_codes import ExitCode

        if self.finding is not None or self.hello_error is not None:
            return ExitCode.FAILED
        return ExitCode.SIGINT if self.interrupted else ExitCode.OK


class _Search:
    """The state of one search: counters, the first disagreement and the smallest one seen."""

    def __init__(self, adapter: Adapter, options: FuzzOptions, *, text: bool, seed: int,
                 on_progress: ProgressCallback | None) -> None:
        self.adapter, self.options, self.text, self.seed = adapter, options, text, seed
        self.on_progress = on_progress
        self.reference = Engine(text=text)
        self.examples = self.steps = 0
        self.first: Disagreement | None = None
        self.best: tuple[Case, Disagreement] | None = None
        self.original_steps = 0
        self.started = time.monotonic()
        self.interrupted = False

    def compare(self, case: Case) -> Disagreement | None:
        """Run one case on both sides; count its steps."""
        result = compare_case(self.adapter, case, self.reference, text=self.text, order=self.options.order)
        self.steps += result.steps
        if self.on_progress is not None:
            self.on_progress(self.examples, self.steps, shrinking=self.first is not None)
        return result.disagreement

    def probe(self, case: Case) -> None:
        """The property Hypothesis checks: raises when ``case`` disagrees like the first finding."""
        if self.first is not None:
            raise _Disagrees  # Hypothesis' final replay of the disagreeing case: nothing new to learn
        budget = self.options.time_budget
        if budget is not None and time.monotonic() - self.started >= budget:
            raise _Stop
        self.examples += 1
        found = self.compare(case)
        if found is None:
            return
        self.first, self.best, self.original_steps = found, (case, found), len(case.events)
        if found.verdict is Verdict.ERRORED:
            raise _Stop  # no replay: a hang would cost another timeout
        raise _Disagrees

    def run(self) -> None:
        """Search with Hypothesis until max_examples, the budget, a finding or Ctrl-C."""
        from hypothesis import HealthCheck, Phase, Verbosity, given, settings
        from hypothesis import seed as seeded
        from hypothesis.errors import Flaky

        @settings(max_examples=self.options.max_examples, deadline=None, database=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck), report_multiple_bugs=False, verbosity=Verbosity.quiet,
                  derandomize=False, print_blob=False)
        @given(cases(self.options.max_steps))
        def agrees_with_reference(case: Case) -> None:
            self.probe(case)

        test = seeded(self.seed)(agrees_with_reference)
        try:
            test()
        except (_Disagrees, _Stop, Flaky):
            pass  # the disagreeing case is in self.best either way
        except KeyboardInterrupt:
            self.interrupted = True

    def unshrunk(self) -> Finding | None:
        """The disagreeing case as first seen, cut after its differing step (when shrinking was interrupted)."""
        if self.best is None:
            return None
        case, found = self.best
        case = case.truncated(found.index) if found.index is not None else case
        return Finding(case=case, disagreement=found, original_steps=self.original_steps)

    def finish(self) -> Finding | None:
        """Shrink the disagreeing case greedily and replay the result once more."""
        if self.best is None:
            return None
        original, found = self.best
        case = original.truncated(found.index) if found.index is not None else original
        if not self.interrupted:
            errored = found.verdict is Verdict.ERRORED
            deadline = time.monotonic() + self.options.shrink_budget
            case = minimise(case, lambda c: found.same_kind(self.compare(c)), max_tries=60 if errored else 2000,
                            deadline=deadline)
        final = self.compare(case)
        if not found.same_kind(final):
            return Finding(case=original, disagreement=found, original_steps=self.original_steps, reproducible=False)
        if final.index is not None:
            case = case.truncated(final.index)
        return Finding(case=case, disagreement=final, original_steps=self.original_steps)


def fuzz(adapter: Adapter, options: FuzzOptions = FuzzOptions(), *,
         on_progress: ProgressCallback | None = None) -> FuzzResult:
    """Fuzz the implementation behind ``adapter`` against the reference; the caller closes the adapter.

    ``on_progress(examples, steps, shrinking=...)`` is called after every case. Never raises
    for the implementation's faults; a failed hello is reported in ``hello_error``.
    """
    started = time.monotonic()
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**32)
    info, hello_error = greet(adapter)
    if hello_error is not None:
        return FuzzResult(info=None, seed=seed, text=False, hello_error=hello_error,
                          duration=time.monotonic() - started)
    text = Profile.TEXT in effective_profiles(info, options.profiles)
    search = _Search(adapter, options, text=text, seed=seed, on_progress=on_progress)
    search.run()
    try:
        finding = search.finish()
    except KeyboardInterrupt:
        search.interrupted, finding = True, search.unshrunk()
    return FuzzResult(info=info, seed=seed, text=text, examples=search.examples, steps=search.steps,
                      duration=time.monotonic() - started, finding=finding, interrupted=search.interrupted)
