"""Differential testing: random step sequences run on an implementation and on the reference.

``pas fuzz`` (``conformance.cli.commands.fuzz``) drives :func:`conformance.fuzz.search.fuzz`:
Hypothesis generates cases (:mod:`~conformance.fuzz.strategies`), each case runs on both
sides step by step (:mod:`~conformance.fuzz.compare`), a disagreement is shrunk
(Hypothesis, then :mod:`~conformance.fuzz.minimise`) and written as a scenario file
(:mod:`~conformance.fuzz.emit`). :mod:`conformance.fuzz.stateful` offers the same comparison as
a Hypothesis state machine for an implementer's own test suite.

Only :mod:`~conformance.fuzz.case`, :mod:`~conformance.fuzz.compare`,
:mod:`~conformance.fuzz.covers`, :mod:`~conformance.fuzz.emit` and
:mod:`~conformance.fuzz.progress` work without Hypothesis installed.
"""
