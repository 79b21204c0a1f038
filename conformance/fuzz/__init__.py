"""Differential testing: random step sequences run on an implementation and on the reference.

``pas fuzz`` (``conformance.cli.commands.fuzz``) drives :func:`conformance.fuzz.search.fuzz`:
cases are generated from the run's seed (:mod:`~conformance.fuzz.generate`), each case runs
on both sides step by step (:mod:`~conformance.fuzz.compare`), a disagreement is shrunk by
a greedy pass (:mod:`~conformance.fuzz.minimise`) and written as a scenario file
(:mod:`~conformance.fuzz.emit`). :mod:`conformance.fuzz.stateful` offers the same comparison as
a Hypothesis state machine for an implementer's own test suite, drawing from the same tables
(:mod:`~conformance.fuzz.strategies`).

Only :mod:`~conformance.fuzz.strategies` and :mod:`~conformance.fuzz.stateful` need
Hypothesis; ``pas fuzz`` works without it.
"""
