"""The search: cases are generated from the run's seed until one disagrees, then it is shrunk.

``random.Random(seed)`` picks each case's own seed and length;
:func:`conformance.fuzz.generate.generate_case` builds the case from them, or, for an
implementation that claims the disclosure profile,
:func:`conformance.fuzz.disclosure_generate.generate_disclosure_case` under the options it
declares, or, for one that claims the host profile,
:func:`conformance.fuzz.host_generate.generate_host_case` (with several profiles in play, the
kinds of case take turns). Hypothesis is not
in this loop: even drawing two values per case through it cost more than running the case's
steps on both sides (its engine mutates and replays earlier examples), and its shrinker
would re-draw whole cases. The first case that disagrees ends the generation. When it does
not disagree again replayed alone in a fresh implementation, the shortest sequence of the
cases before it after which it does is found and shrunk (:mod:`conformance.fuzz.sequence`);
otherwise it is shrunk by :mod:`conformance.fuzz.minimise`, a greedy pass that knows what a
case is made of, and replays a hanging implementation a bounded number of times. Both passes are
deterministic, so ``--seed`` reproduces the emitted file. Nothing here raises for the
implementation's faults; Ctrl-C ends the search with what was found.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass

from conformance.adapters.implementation import Adapter, FailureKind, Requests
from conformance.fuzz.case import Case
from conformance.fuzz.compare import Comparison, Disagreement, Reference, Verdict, compare_case
from conformance.fuzz.disclosure_case import DisclosureCase
from conformance.fuzz.disclosure_compare import compare_disclosure_case
from conformance.fuzz.disclosure_generate import MAX_STEPS as MAX_DISCLOSURE_STEPS
from conformance.fuzz.disclosure_generate import generate_disclosure_case
from conformance.fuzz.generate import MAX_STEPS, generate_case
from conformance.fuzz.host_case import HostCase
from conformance.fuzz.host_compare import compare_host_case
from conformance.fuzz.host_generate import MAX_STEPS as MAX_HOST_STEPS
from conformance.fuzz.host_generate import generate_host_case
from conformance.fuzz.minimise import minimise
from conformance.fuzz.sequence import across_cases, variants
from conformance.suite.results import ErrorDetail
from conformance.suite.runner import effective_profiles, greet
from reference_impl.disclosure_options import Options
from reference_impl.model import ImplementationInfo, Profile

AnyCase = Case | DisclosureCase | HostCase
_DISCLOSURE_STREAM = 0x5EED_D15C  # the disclosure cases' seed is the run's seed with these bits flipped
_HOST_STREAM = 0x5EED_0057  # and the host cases' with these

ProgressCallback = Callable[..., None]  # (examples, steps, *, shrinking) -> None
#: The profiles whose events the search generates (text rides on activation cases): with none of them, nothing to fuzz.
FUZZED_PROFILES = frozenset({Profile.ACTIVATION, Profile.TEXT, Profile.DISCLOSURE, Profile.HOST})
#: How often the shrunk case is replayed: a finding that does not disagree every time is reported as flaky.
REPLAYS = 8


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

    The shrunk case is replayed ``replays`` times; ``disagreed`` says in how many it disagreed the
    same way. ``reproducible`` is False unless it did every time (a flaky implementation); when it
    never did, the case is the one first seen, unshrunk. ``before`` holds the cases that must run
    first, from a fresh implementation, for ``case`` to disagree (state kept from one case to the
    next, :mod:`conformance.fuzz.sequence`); empty when it disagrees alone.
    """

    case: AnyCase
    disagreement: Disagreement
    original_steps: int
    reproducible: bool = True
    before: tuple[AnyCase, ...] = ()
    replays: int = 1
    disagreed: int = 1

    @property
    def flaky(self) -> bool:
        """True when some replays disagreed and some did not."""
        return 0 < self.disagreed < self.replays


@dataclass(frozen=True, slots=True, kw_only=True)
class FuzzResult:
    """A whole fuzz run: who was tested, what was searched, and the finding if any.

    ``hello_error`` is set when the implementation failed before any case could run;
    ``nothing_to_test`` says why no case ran when it claims none of :data:`FUZZED_PROFILES`.
    """

    info: ImplementationInfo | None
    seed: int
    text: bool
    examples: int = 0
    steps: int = 0
    duration: float = 0.0
    finding: Finding | None = None
    hello_error: ErrorDetail | None = None
    nothing_to_test: str | None = None
    interrupted: bool = False

    @property
    def steps_per_second(self) -> float:
        """Steps sent to the implementation per second of the whole run."""
        return self.steps / self.duration if self.duration > 0 else 0.0

    @property
    def found(self) -> bool:
        """True when something was found: a disagreement, an error, or a failed hello."""
        return self.finding is not None or self.hello_error is not None


class _Search:
    """The state of one search: counters, the first disagreement and the smallest one seen."""

    def __init__(self, adapter: Adapter, options: FuzzOptions, *, text: bool, seed: int,
                 on_progress: ProgressCallback | None, activation: bool = True, declared: Options | None = None,
                 host: bool = False) -> None:
        self.adapter, self.options, self.text, self.seed = adapter, options, text, seed
        # which kinds of case: declared None, no disclosure; host False, no host case
        self.activation, self.declared, self.host = activation, declared, host
        self.on_progress = on_progress
        self.reference = Reference(text=text)
        self.examples = self.steps = 0
        self.first: Disagreement | None = None
        self.best: tuple[AnyCase, Disagreement] | None = None
        self.history: list[AnyCase] = []  # the cases that agreed, in order: a finding may need them replayed first
        self.original_steps = 0
        self.started = time.monotonic()
        self.interrupted = False

    def compare(self, case: AnyCase, then: AnyCase | None = None) -> Disagreement | None:
        """Run one case on both sides; count its steps. ``then`` is the case to run next if this one agrees:
        its requests may be written ahead (:func:`requests_of`)."""
        result: Comparison
        ahead = requests_of(then) if then is not None else None
        if isinstance(case, DisclosureCase):
            result = compare_disclosure_case(self.adapter, case, order=self.options.order, then=ahead)
        elif isinstance(case, HostCase):
            result = compare_host_case(self.adapter, case, then=ahead)
        else:
            result = compare_case(self.adapter, case, self.reference, text=self.text, order=self.options.order,
                                  then=ahead)
        self.steps += result.steps
        if self.on_progress is not None:
            self.on_progress(self.examples, self.steps, shrinking=self.first is not None)
        return result.disagreement

    def cases(self) -> Iterator[AnyCase]:
        """The search's cases in order: each from a seed and a length drawn from the run's seed.

        Activation, disclosure and host cases take turns, in that order, when their profiles are
        in play, each kind drawn from a stream of its own: the activation cases of a seed are the
        same whatever else the implementation claims.
        """
        kinds = self._kinds()
        for number in range(self.options.max_examples):
            yield kinds[number % len(kinds)]()

    def _kinds(self) -> list[Callable[[], AnyCase]]:
        """One case maker per kind in play (activation when none is), each with its own random stream."""
        most = self.options.max_steps
        activation, disclosure = random.Random(self.seed), random.Random(self.seed ^ _DISCLOSURE_STREAM)
        host = random.Random(self.seed ^ _HOST_STREAM)
        declared = self.declared

        def activation_case() -> AnyCase:
            return generate_case(activation.getrandbits(64), activation.randint(1, most))

        def disclosure_case() -> AnyCase:
            assert declared is not None  # only in play when declared
            steps = disclosure.randint(1, min(most, MAX_DISCLOSURE_STEPS))
            return generate_disclosure_case(disclosure.getrandbits(64), steps, declared)

        def host_case() -> AnyCase:
            return generate_host_case(host.getrandbits(64), host.randint(1, min(most, MAX_HOST_STEPS)))

        kinds = [activation_case] if self.activation else []
        kinds += [disclosure_case] if declared is not None else []
        kinds += [host_case] if self.host else []
        return kinds or [activation_case]

    def run(self) -> None:
        """Compare cases until max_examples, the time budget, a disagreement or Ctrl-C."""
        budget = self.options.time_budget
        try:
            cases = self.cases()
            upcoming = next(cases, None)
            while upcoming is not None:
                case, upcoming = upcoming, next(cases, None)  # the next one drawn now: its requests may go ahead
                if budget is not None and time.monotonic() - self.started >= budget:
                    return
                self.examples += 1
                found = self.compare(case, upcoming)
                if found is not None:
                    self.first, self.best, self.original_steps = found, (case, found), len(case.events)
                    return
                self.history.append(case)
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
        """Shrink the disagreeing case greedily and replay the result :data:`REPLAYS` times (twice for a hang)."""
        if self.best is None:
            return None
        original, found = self.best
        case = original.truncated(found.index) if found.index is not None else original
        if not self.interrupted:
            errored = found.verdict is Verdict.ERRORED
            deadline = time.monotonic() + self.options.shrink_budget
            across = across_cases(self.history, case, found, compare=self.compare, reset=self.adapter.reset,
                                  deadline=deadline, max_tries=60 if errored else 400)
            if across is not None:
                return Finding(case=across.case, disagreement=across.disagreement, original_steps=self.original_steps,
                               before=across.before)
            case = minimise(case, lambda c: found.same_kind(self.compare(c)), max_tries=60 if errored else 2000,
                            deadline=deadline, variants=variants)
        replays = 2 if found.kind is FailureKind.TIMEOUT else REPLAYS  # each replay of a hang costs a timeout
        same = [d for d in (self.compare(case) for _ in range(replays)) if found.same_kind(d)]
        if not same:
            return Finding(case=original, disagreement=found, original_steps=self.original_steps, reproducible=False,
                           replays=replays, disagreed=0)
        final = same[0]
        assert final is not None  # same_kind is false for None
        if final.index is not None:
            case = case.truncated(final.index)
        return Finding(case=case, disagreement=final, original_steps=self.original_steps,
                       reproducible=len(same) == replays, replays=replays, disagreed=len(same))


def requests_of(case: AnyCase) -> Requests:
    """What running ``case`` sends, as :func:`~conformance.fuzz.compare.walk` streams it: an activation case's
    ``start`` and events, a disclosure case's catalogue and events, a host case's commands."""
    if isinstance(case, DisclosureCase):
        return Requests.of((case.opening, *case.events))
    if isinstance(case, HostCase):
        return Requests.of(case.events)
    return Requests.of(case.events, start=(case.plugins, case.host))


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
    in_play = effective_profiles(info, options.profiles)
    if FUZZED_PROFILES.isdisjoint(in_play):  # the cases are activation, text, disclosure and host events
        claimed = ", ".join(info.profiles) if info is not None and info.profiles else "no profile"
        return FuzzResult(info=info, seed=seed, text=False, duration=time.monotonic() - started,
                          nothing_to_test=f"it claims {claimed}; pas fuzz compares the activation, text, disclosure "
                                          "and host profiles: nothing to fuzz")
    text = Profile.TEXT in in_play
    declared = info.disclosure_options if info is not None and Profile.DISCLOSURE in in_play else None
    search = _Search(adapter, options, text=text, seed=seed, on_progress=on_progress,
                     activation=Profile.ACTIVATION in in_play, declared=declared, host=Profile.HOST in in_play)
    search.run()
    try:
        finding = search.finish()
    except KeyboardInterrupt:
        search.interrupted, finding = True, search.unshrunk()
    return FuzzResult(info=info, seed=seed, text=text, examples=search.examples, steps=search.steps,
                      duration=time.monotonic() - started, finding=finding, interrupted=search.interrupted)
