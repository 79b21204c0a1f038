"""The host profile's commands: what a host is asked to do, as frozen values with a wire form.

Wire names are ``host-*``: ``host-load`` (register + validate), ``host-start`` (setup then
start, in dependency order), ``host-open-conversation``, ``host-dispatch`` (a hook),
``host-reload``, ``host-read-config``, ``host-stop`` (stop then teardown, in reverse).
:mod:`reference_impl.host` applies them; what plugins do is data (:class:`Behaviour`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from reference_impl.errors import MalformedDocument
from reference_impl.frozen import JSON, thaw
from reference_impl.model import HostConfig, Manifest


@dataclass(frozen=True, slots=True, kw_only=True)
class Behaviour:
    """Simulated plugin behaviour: whose setup fails, and which hooks raise (module_name -> hook names)."""

    setup_fails: frozenset[str] = frozenset()
    hook_raises: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def raises(self, module_name: str, hook: str) -> bool:
        """Whether ``module_name``'s subscriber to ``hook`` raises."""
        return hook in self.hook_raises.get(module_name, ())

    def to_json(self) -> dict[str, JSON]:
        """Return the wire form."""
        return {"setup_fails": sorted(self.setup_fails),
                "hook_raises": {m: sorted(h) for m, h in sorted(self.hook_raises.items())}}

    @classmethod
    def from_json(cls, doc: Mapping[str, JSON]) -> Behaviour:
        """Build from the wire form; raises MalformedDocument on a wrong shape."""
        fails, raises = doc.get("setup_fails", []), doc.get("hook_raises", {})
        if not isinstance(fails, list) or not isinstance(raises, Mapping):
            raise MalformedDocument(field="behaviour", reason="needs a setup_fails list and a hook_raises mapping")
        return cls(setup_fails=frozenset(fails), hook_raises={m: frozenset(h) for m, h in raises.items()})


@dataclass(frozen=True, slots=True, kw_only=True)
class Load:
    """Install ``plugins`` (installation order) under ``host``, then register and validate them."""

    cmd: ClassVar[str] = "host-load"
    plugins: tuple[Manifest, ...] = ()
    host: HostConfig = field(default_factory=HostConfig)
    environment: Mapping[str, str] = field(default_factory=dict)
    overrides: tuple[str, ...] = ()
    behaviour: Behaviour = field(default_factory=Behaviour)

    def to_json(self) -> dict[str, JSON]:
        """Return the wire form."""
        return {"cmd": self.cmd, "plugins": [m.to_json() for m in self.plugins], "host": self.host.to_json(),
                "environment": dict(self.environment), "overrides": list(self.overrides),
                "behaviour": self.behaviour.to_json()}

    @classmethod
    def from_json(cls, doc: Mapping[str, JSON]) -> Load:
        """Build from the wire form; raises MalformedDocument on a wrong shape."""
        return cls(plugins=tuple(Manifest.from_json(m) for m in doc.get("plugins", [])),
                   host=HostConfig.from_json(doc.get("host", {})), environment=dict(doc.get("environment", {})),
                   overrides=tuple(doc.get("overrides", [])), behaviour=Behaviour.from_json(doc.get("behaviour", {})))


@dataclass(frozen=True, slots=True, kw_only=True)
class Start:
    """Set up, then start, every valid plugin in dependency order."""

    cmd: ClassVar[str] = "host-start"


@dataclass(frozen=True, slots=True, kw_only=True)
class Stop:
    """Stop, then tear down, every started plugin in reverse order."""

    cmd: ClassVar[str] = "host-stop"


@dataclass(frozen=True, slots=True, kw_only=True)
class Dispatch:
    """Dispatch ``hook`` (in ``conversation``, opened if new; "" for none) to its subscribers."""

    cmd: ClassVar[str] = "host-dispatch"
    hook: str
    conversation: str = ""
    payload: Mapping[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenConversation:
    """Open ``conversation``: it keeps the plugin instances current now (HOST-CONV-1)."""

    cmd: ClassVar[str] = "host-open-conversation"
    conversation: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Reload:
    """Reload one plugin: conversations opened from now on get a new instance."""

    cmd: ClassVar[str] = "host-reload"
    module_name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ReadConfig:
    """Read the configuration snapshot one plugin receives, with provenance."""

    cmd: ClassVar[str] = "host-read-config"
    module_name: str


HostCommand = Load | Start | Stop | Dispatch | OpenConversation | Reload | ReadConfig
#: The command classes, spelled out so that ``isinstance(x, HOST_COMMAND_TYPES)`` narrows to HostCommand.
HOST_COMMAND_TYPES: Final = (Load, Start, Stop, Dispatch, OpenConversation, Reload, ReadConfig)
COMMAND_TYPES: Final[Mapping[str, type[HostCommand]]] = {t.cmd: t for t in HOST_COMMAND_TYPES}


def command_to_json(command: HostCommand) -> dict[str, JSON]:
    """The wire form ``{"cmd": ..., ...}`` of a command."""
    if isinstance(command, Load):
        return command.to_json()
    return {"cmd": command.cmd, **{f: thaw(getattr(command, f)) for f in command.__dataclass_fields__}}


def command_from_json(doc: Mapping[str, JSON]) -> HostCommand:
    """Build a command from ``{"cmd": ..., ...}``; raises MalformedDocument on a wrong shape."""
    cmd = doc.get("cmd") if isinstance(doc, Mapping) else None
    command_type = COMMAND_TYPES.get(cmd) if isinstance(cmd, str) else None
    if command_type is None:
        raise MalformedDocument(field="cmd", reason=f"must be one of {', '.join(COMMAND_TYPES)}, not {cmd!r}")
    if command_type is Load:
        return Load.from_json(doc)
    fields = dict(doc)
    del fields["cmd"]
    try:
        return command_type(**fields)
    except TypeError as error:
        raise MalformedDocument(field="", reason=f"is not a valid {cmd!r} command: {error}") from None


def is_host_command(value: Any) -> bool:
    """Whether ``value`` is a host command, as opposed to an activation event."""
    return isinstance(value, HOST_COMMAND_TYPES)
