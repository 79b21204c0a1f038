"""The facts a disclosure step's failure is attributed with: what differs, what happened before, what was declared.

spec/attribution.yaml refines a disclosure mismatch by keys computed here:

* ``shown_difference``: of the catalogue tools a ``shown`` mismatch lists, ``extra_deferred``
  when a tool is shown that should not be (a deferred tool, or a name the catalogue lacks),
  ``missing_always`` when an always-visible tool is missing, ``missing_loaded`` when a deferred
  tool that should be visible is missing (several keys when several hold);
* ``answer``: the kind of call and the key that differs, ``load.outcome``, ``search.found``,
  ``list.listed``, ``invoke.outcome``, ``load.results`` (a results list of another length) ...;
  ``unsupported`` when the host answered that it offers no such call;
* ``order_option`` and ``discovery_option``: the declared ``order`` and ``discovery``;
* ``step_calls``: the kinds of call the model step makes (``load``, ``search`` ...; each applies).

What happened before the step (its *history*): ``requests`` (the step is in a later request
of its thread than the first), ``threads`` (another thread was used), ``rebuilt``, ``trimmed`` (that thread's
history), ``idled``, ``cleared`` (that thread's state, by the host).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from conformance.suite.mismatch import Mismatch
from reference_impl.disclosure_commands import Clear, EndRequest, Idle, ModelStep, Rebuild, Request, Tool, Trim
from reference_impl.disclosure_options import Options


def _names(value: Any) -> set[str]:
    return {name for name in value if isinstance(name, str)} if isinstance(value, list) else set()


def shown_difference(mismatch: Mismatch, tools: Sequence[Tool]) -> list[str]:
    """``extra_deferred``, ``missing_always``, ``missing_loaded``: what a ``shown`` mismatch is about."""
    expected, actual = _names(mismatch.expected), _names(mismatch.actual)
    always = {tool.name for tool in tools if tool.always_visible}
    found = []
    if actual - expected - always:
        found.append("extra_deferred")
    if (expected - actual) & always:
        found.append("missing_always")
    if (expected - actual) - always:
        found.append("missing_loaded")
    return found


def answer_key(mismatch: Mismatch) -> list[str]:
    """``<call>.<key>`` of an answers mismatch (``load.outcome``), ``unsupported``, or none for the answer count."""
    parts = [part for part in mismatch.pointer.split("/") if part and not part.isdigit()]
    if len(parts) < 2 or not mismatch.subject:
        return []
    return ["unsupported"] if parts[-1] == "unsupported" else [f"{mismatch.subject}.{parts[-1]}"]


def option_key(by: str, declared: Options | None) -> list[str]:
    """The declared value an ``order_option`` or ``discovery_option`` refinement reads (the defaults when none)."""
    options = declared if declared is not None else Options()
    return list(options.value_of(by.removesuffix("_option")))


def call_kinds(event: Any) -> tuple[str, ...]:
    """The kinds of call a model step makes, in order (none for another event)."""
    return tuple(call.key for call in event.calls) if isinstance(event, ModelStep) else ()


def _thread_of(event: Any) -> str | None:
    return event.thread if isinstance(event, (Request, ModelStep, EndRequest, Trim, Clear)) else None


def disclosure_history(before: Iterable[Any], event: Any) -> frozenset[str]:
    """What happened before ``event`` (a disclosure event) that its failure may be about (see the module's docstring)."""
    before = list(before)
    thread = _thread_of(event)
    found = set()
    requests = sum(isinstance(e, Request) and e.thread == thread for e in before)
    if requests > (1 if isinstance(event, ModelStep) else 0):  # a model step is in the last request before it
        found.add("requests")
    if len({t for e in (*before, event) if (t := _thread_of(e)) is not None}) > 1:
        found.add("threads")
    kinds = {Rebuild: "rebuilt", Idle: "idled"}
    found.update(name for kind, name in kinds.items() if any(isinstance(e, kind) for e in before))
    if any(isinstance(e, Trim) and e.thread == thread for e in before):
        found.add("trimmed")
    if any(isinstance(e, Clear) for e in before):
        found.add("cleared")
    return frozenset(found)
