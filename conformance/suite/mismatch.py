"""One difference between what a step expects and what an implementation observed.

Every profile's expectations (:mod:`conformance.suite.expectations`,
:mod:`conformance.suite.disclosure_expectations`) report their differences as these, and
:mod:`conformance.suite.attribution` maps each to the requirements it breaks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: An absent value in an observation (reported as ``(missing)``, null in JSON).
MISSING: Any = object()


@dataclass(frozen=True, slots=True, kw_only=True)
class Mismatch:
    """One difference between an expectation and an observation.

    ``field`` is the kind of expectation (``state``, ``rounds_left``, ``hint``, ``shown``,
    ``order``, ``outcome``, ``rounds``, ``ends_step``, ``block``, ``text``, ``events``,
    ``problems``, ``load_order``, ``setup_order``, ``config``, ``provenance``; for disclosure
    steps ``shown``, ``order``, ``answers`` and the implicit ``tools``, ``roles`` and
    ``duplicates``), which is what :mod:`conformance.suite.attribution` maps to requirements;
    ``pointer`` is an RFC 6901 pointer into the observation; ``subject`` names the plugin a view
    expectation is about, or the kind of call (``load``, ``search`` ...) an answer is about;
    ``check`` says how the two were compared when it is not plain equality (``contains``,
    ``not_contains``, ``presence``, ``count``, ``set``, ``stale``: an entry that should not be there).
    """

    field: str
    pointer: str
    expected: Any
    actual: Any
    subject: str = ""
    check: str = "equals"

    @property
    def where(self) -> str:
        """The pointer with what it is about, for people: ``/plugins/2/state (weather)``."""
        about = ", ".join(part for part in (self.subject, "" if self.check == "equals" else self.check) if part)
        return f"{self.pointer or '/'}" + (f" ({about})" if about else "")

    def __str__(self) -> str:
        actual = "(missing)" if self.actual is MISSING else repr(self.actual)
        return f"{self.where}: expected {self.expected!r}, got {actual}"

    def to_json(self) -> dict[str, Any]:
        """The JSON form in reports (the actual value null when it was missing)."""
        return {"field": self.field, "pointer": self.pointer, "subject": self.subject, "check": self.check,
                "expected": self.expected, "actual": None if self.actual is MISSING else self.actual}
