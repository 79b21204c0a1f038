"""PAS reference implementation: the activation-scheduling rules of spec 1.0, executable.

The public API is the names in ``__all__``, and only those: import them from the package
(``from reference_impl import Manifest, RunObservation``). Every submodule is internal and may
change in any release, even when a name can be reached through it.

The first part of ``__all__`` is the vocabulary every implementation speaks, whatever its
language: manifests and host configs, the events it is sent, the observations it answers with,
the host profile's commands and observations, the disclosure profile's options, events and
answers, problems and errors. Taking any of it imports
those values and never the rules. The second part is the reference's own rules, for whoever
copies them: ``Engine`` (what ``pas run --impl reference`` drives), the pure ``step`` over a
``SchedulerState``, the reference text (``render_run``, ``render_reply``) and ``HostEngine``.

The rules (`eligibility`, `catalogue`, `scheduler`, `render`) are pure: no I/O, clock, logging,
global state or cache; every value they take and return is immutable and hashable (`frozen`,
`model`, `events`). Their semantics (spec/semantics.yaml's constants and tables) are an
argument, read only by `semantics.load_semantics`. `fast.FastScheduler` gives the same results
with caches keyed by those values; `engine.Engine`, the thin stateful shell that the conformance
adapters drive, steps through it. A name is imported the first time it is used
(`reference_impl.exports`).
"""

from reference_impl.exports import lazy_exports

TYPE_CHECKING = False  # typing.TYPE_CHECKING would import typing, which costs more than the rest

__version__ = "1.0.0"

# Public name -> the module that defines it: one line per name. Adding a name is its line here
# and the name in the typing import below (tests/test_public_api.py fails on a name in one only).
_EXPORTS = {
    # The vocabulary: manifests, host configs, who an implementation is.
    "Manifest": ".model",
    "Method": ".model",
    "MethodKind": ".model",
    "HostConfig": ".model",
    "Strategy": ".model",
    "Profile": ".model",
    "ImplementationInfo": ".model",
    "FrozenMap": ".frozen",
    # Events an implementation is sent.
    "Event": ".events",
    "StartRun": ".events",
    "Activate": ".events",
    "Extend": ".events",
    "SetStrategy": ".events",
    "Enable": ".events",
    "Disable": ".events",
    "SetScheduler": ".events",
    "Restart": ".events",
    "OMITTED": ".events",
    "event_from_json": ".events",
    # Observations it answers with.
    "Observation": ".events",
    "RunObservation": ".events",
    "PluginView": ".events",
    "PluginState": ".model",
    "CallObservation": ".events",
    "OutcomeKind": ".model",
    "AdminObservation": ".events",
    "AdminOutcome": ".model",
    # The host profile: commands and what a host reports.
    "HostCommand": ".host_commands",
    "Load": ".host_commands",
    "Start": ".host_commands",
    "Stop": ".host_commands",
    "Dispatch": ".host_commands",
    "OpenConversation": ".host_commands",
    "Reload": ".host_commands",
    "ReadConfig": ".host_commands",
    "Behaviour": ".host_commands",
    "command_from_json": ".host_commands",
    "HostObservation": ".host_observations",
    "LifecycleEvent": ".host_observations",
    "EventKind": ".host_observations",
    "MergedConfig": ".host_observations",
    "Provenance": ".host_observations",
    "Layer": ".host_observations",
    # The disclosure profile: declared options, the catalogue, events, calls and answers.
    "DisclosureOptions": ".disclosure_options",
    "Scope": ".disclosure_options",
    "Discovery": ".disclosure_options",
    "Order": ".disclosure_options",
    "HiddenCalls": ".disclosure_options",
    "Expiry": ".disclosure_options",
    "UnloadBy": ".disclosure_options",
    "Role": ".disclosure_options",
    "Tool": ".disclosure_commands",
    "LoadCall": ".disclosure_commands",
    "SearchCall": ".disclosure_commands",
    "ListCall": ".disclosure_commands",
    "InvokeCall": ".disclosure_commands",
    "DisclosureStart": ".disclosure_commands",
    "Request": ".disclosure_commands",
    "ModelStep": ".disclosure_commands",
    "EndRequest": ".disclosure_commands",
    "Rebuild": ".disclosure_commands",
    "Store": ".disclosure_commands",
    "Trim": ".disclosure_commands",
    "Idle": ".disclosure_commands",
    "Clear": ".disclosure_commands",
    "DisclosureEvent": ".disclosure_commands",
    "disclosure_event_from_json": ".disclosure_commands",
    "LoadAnswer": ".disclosure_answers",
    "SearchAnswer": ".disclosure_answers",
    "ListAnswer": ".disclosure_answers",
    "InvokeAnswer": ".disclosure_answers",
    "UnsupportedAnswer": ".disclosure_answers",
    "LoadOutcome": ".disclosure_answers",
    "InvokeOutcome": ".disclosure_answers",
    "ToolsObservation": ".disclosure_answers",
    "StepObservation": ".disclosure_answers",
    "Done": ".disclosure_answers",
    "DisclosureObservation": ".disclosure_answers",
    # Problems and errors.
    "Problem": ".problems",
    "Severity": ".problems",
    "SourceLocation": ".problems",
    "Origin": ".problems",
    "SourceKind": ".problems",
    "PasError": ".errors",
    "MalformedDocument": ".errors",
    "SpecFilesMissing": ".errors",
    # The reference's rules, for whoever copies them (each imports the rules it needs).
    "Engine": ".engine",
    "step": ".scheduler",
    "SchedulerState": ".scheduler",
    "Catalogue": ".catalogue",
    "Semantics": ".semantics",
    "load_semantics": ".semantics",
    "render_run": ".render",
    "render_reply": ".render",
    "HostEngine": ".host",
}

__all__ = ["__version__", *_EXPORTS]

if TYPE_CHECKING:  # what type checkers and the API docs read: the same names, imported at once
    from reference_impl.catalogue import Catalogue as Catalogue
    from reference_impl.disclosure_answers import DisclosureObservation as DisclosureObservation
    from reference_impl.disclosure_answers import Done as Done
    from reference_impl.disclosure_answers import InvokeAnswer as InvokeAnswer
    from reference_impl.disclosure_answers import InvokeOutcome as InvokeOutcome
    from reference_impl.disclosure_answers import ListAnswer as ListAnswer
    from reference_impl.disclosure_answers import LoadAnswer as LoadAnswer
    from reference_impl.disclosure_answers import LoadOutcome as LoadOutcome
    from reference_impl.disclosure_answers import SearchAnswer as SearchAnswer
    from reference_impl.disclosure_answers import StepObservation as StepObservation
    from reference_impl.disclosure_answers import ToolsObservation as ToolsObservation
    from reference_impl.disclosure_answers import UnsupportedAnswer as UnsupportedAnswer
    from reference_impl.disclosure_commands import Clear as Clear
    from reference_impl.disclosure_commands import DisclosureEvent as DisclosureEvent
    from reference_impl.disclosure_commands import DisclosureStart as DisclosureStart
    from reference_impl.disclosure_commands import EndRequest as EndRequest
    from reference_impl.disclosure_commands import Idle as Idle
    from reference_impl.disclosure_commands import InvokeCall as InvokeCall
    from reference_impl.disclosure_commands import ListCall as ListCall
    from reference_impl.disclosure_commands import LoadCall as LoadCall
    from reference_impl.disclosure_commands import ModelStep as ModelStep
    from reference_impl.disclosure_commands import Rebuild as Rebuild
    from reference_impl.disclosure_commands import Request as Request
    from reference_impl.disclosure_commands import SearchCall as SearchCall
    from reference_impl.disclosure_commands import Store as Store
    from reference_impl.disclosure_commands import Tool as Tool
    from reference_impl.disclosure_commands import Trim as Trim
    from reference_impl.disclosure_commands import disclosure_event_from_json as disclosure_event_from_json
    from reference_impl.disclosure_options import DisclosureOptions as DisclosureOptions
    from reference_impl.disclosure_options import Discovery as Discovery
    from reference_impl.disclosure_options import Expiry as Expiry
    from reference_impl.disclosure_options import HiddenCalls as HiddenCalls
    from reference_impl.disclosure_options import Order as Order
    from reference_impl.disclosure_options import Role as Role
    from reference_impl.disclosure_options import Scope as Scope
    from reference_impl.disclosure_options import UnloadBy as UnloadBy
    from reference_impl.engine import Engine as Engine
    from reference_impl.errors import MalformedDocument as MalformedDocument
    from reference_impl.errors import PasError as PasError
    from reference_impl.errors import SpecFilesMissing as SpecFilesMissing
    from reference_impl.events import OMITTED as OMITTED
    from reference_impl.events import Activate as Activate
    from reference_impl.events import AdminObservation as AdminObservation
    from reference_impl.events import CallObservation as CallObservation
    from reference_impl.events import Disable as Disable
    from reference_impl.events import Enable as Enable
    from reference_impl.events import Event as Event
    from reference_impl.events import Extend as Extend
    from reference_impl.events import Observation as Observation
    from reference_impl.events import PluginView as PluginView
    from reference_impl.events import Restart as Restart
    from reference_impl.events import RunObservation as RunObservation
    from reference_impl.events import SetScheduler as SetScheduler
    from reference_impl.events import SetStrategy as SetStrategy
    from reference_impl.events import StartRun as StartRun
    from reference_impl.events import event_from_json as event_from_json
    from reference_impl.frozen import FrozenMap as FrozenMap
    from reference_impl.host import HostEngine as HostEngine
    from reference_impl.host_commands import Behaviour as Behaviour
    from reference_impl.host_commands import Dispatch as Dispatch
    from reference_impl.host_commands import HostCommand as HostCommand
    from reference_impl.host_commands import Load as Load
    from reference_impl.host_commands import OpenConversation as OpenConversation
    from reference_impl.host_commands import ReadConfig as ReadConfig
    from reference_impl.host_commands import Reload as Reload
    from reference_impl.host_commands import Start as Start
    from reference_impl.host_commands import Stop as Stop
    from reference_impl.host_commands import command_from_json as command_from_json
    from reference_impl.host_observations import EventKind as EventKind
    from reference_impl.host_observations import HostObservation as HostObservation
    from reference_impl.host_observations import Layer as Layer
    from reference_impl.host_observations import LifecycleEvent as LifecycleEvent
    from reference_impl.host_observations import MergedConfig as MergedConfig
    from reference_impl.host_observations import Provenance as Provenance
    from reference_impl.model import AdminOutcome as AdminOutcome
    from reference_impl.model import HostConfig as HostConfig
    from reference_impl.model import ImplementationInfo as ImplementationInfo
    from reference_impl.model import Manifest as Manifest
    from reference_impl.model import Method as Method
    from reference_impl.model import MethodKind as MethodKind
    from reference_impl.model import OutcomeKind as OutcomeKind
    from reference_impl.model import PluginState as PluginState
    from reference_impl.model import Profile as Profile
    from reference_impl.model import Strategy as Strategy
    from reference_impl.problems import Origin as Origin
    from reference_impl.problems import Problem as Problem
    from reference_impl.problems import Severity as Severity
    from reference_impl.problems import SourceKind as SourceKind
    from reference_impl.problems import SourceLocation as SourceLocation
    from reference_impl.render import render_reply as render_reply
    from reference_impl.render import render_run as render_run
    from reference_impl.scheduler import SchedulerState as SchedulerState
    from reference_impl.scheduler import step as step
    from reference_impl.semantics import Semantics as Semantics
    from reference_impl.semantics import load_semantics as load_semantics
else:
    __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
