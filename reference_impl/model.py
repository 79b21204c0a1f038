"""The PAS value types: manifests, host configs, events and observations.

Every type is a frozen dataclass with one serialisation pair, ``to_json`` / ``from_json``,
and a value all the way down: its collections are tuples, frozensets and
:class:`~reference_impl.frozen.FrozenMap` (the constructors freeze the dicts and lists they are
given), so it is immutable and hashable, and equal values are interchangeable. ``to_json``
gives plain dicts and lists. ``from_json`` expects a document that already passed its JSON
Schema (the loaders in ``conformance`` check that first and report problems with file, line
and pointer); given anything else it raises :class:`MalformedDocument` naming the field.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from reference_impl.disclosure_options import Options
from reference_impl.errors import MalformedDocument
from reference_impl.frozen import EMPTY, FrozenMap, thaw

JSON = Any  # a value made of dict, list, str, int, float, bool and None

# Unicode's White_Space property (ACT-ELIG-6): what "trimming whitespace" removes from a brief.
# Spelled out because languages disagree (Python's str.strip also removes U+001C..U+001F,
# JavaScript's trim also removes U+FEFF and keeps U+0085).
WHITE_SPACE = (
    "\u0009\u000a\u000b\u000c\u000d\u0020\u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004"
    "\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


class MethodKind(enum.StrEnum):
    """How a plugin method's reply is used by the agent loop."""

    TOOL = "tool"
    AGENT = "agent"
    BEHAVIOR = "behavior"
    MULTIMODAL_AGENT = "multimodal_agent"


class Strategy(enum.StrEnum):
    """An admin's activation strategy for one plugin."""

    AUTO = "auto"
    ALLOW_SLEEP = "allow_sleep"
    FORBID_SLEEP = "forbid_sleep"


class PluginState(enum.StrEnum):
    """What the model is shown of a plugin during one run."""

    ALWAYS_AWAKE = "always_awake"
    ACTIVE = "active"
    SLEEPING = "sleeping"


class OutcomeKind(enum.StrEnum):
    """The result of an ``activate_plugin`` or ``extend_plugin_activation`` call."""

    NOT_FOUND = "not_found"
    ALWAYS_AWAKE = "always_awake"
    ALREADY_ACTIVE = "already_active"
    ACTIVATED = "activated"
    EXTENDED = "extended"
    INVALID_ARGUMENT = "invalid_argument"


class AdminOutcome(enum.StrEnum):
    """The result of an admin action (strategy change, enable, disable, scheduler switch)."""

    APPLIED = "applied"
    REJECTED = "rejected"


def _rebuild(cls: Any, fields: Mapping[str, Any]) -> Any:
    """Unpickle a value through its constructor."""
    return cls(**fields)


def _field(doc: Mapping[str, JSON], key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    if key not in doc:
        if default is ...:
            raise MalformedDocument(field=key, reason="is required")
        return default
    value = doc[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _as_tuple(kind)):
        raise MalformedDocument(field=key, reason=f"must be {_type_names(kind)}, not {type(value).__name__}")
    return value


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _type_names(kind: type | tuple[type, ...]) -> str:
    return " or ".join(t.__name__ for t in _as_tuple(kind))


def _present(doc: Mapping[str, JSON], kinds: Mapping[str, type]) -> dict[str, Any]:
    """The fields of ``kinds`` that ``doc`` gives, type-checked; an absent one keeps the dataclass default."""
    return {key: _field(doc, key, kind) for key, kind in kinds.items() if key in doc}


def _strings(doc: Mapping[str, JSON], key: str) -> tuple[str, ...]:
    values = _field(doc, key, list, [])
    if not all(isinstance(v, str) for v in values):
        raise MalformedDocument(field=key, reason="must be a list of strings")
    return tuple(values)


def _enum(enum_type: type[enum.StrEnum], value: Any, where: str) -> Any:
    try:
        return enum_type(value)
    except ValueError:
        allowed = ", ".join(member.value for member in enum_type)
        raise MalformedDocument(field=where, reason=f"must be one of {allowed}, not {value!r}") from None


@dataclass(frozen=True, slots=True, kw_only=True)
class Method:
    """A method a plugin exposes to the model."""

    name: str
    kind: MethodKind
    description: str
    parameters: Mapping[str, JSON] = EMPTY
    label: str | None = None  # for people only (admin UIs); never shown to the model

    def __post_init__(self) -> None:
        object.__setattr__(self, "parameters", FrozenMap(self.parameters))

    def to_json(self) -> dict[str, JSON]:
        """Return the manifest form of this method."""
        doc: dict[str, JSON] = {"name": self.name, "kind": self.kind.value, "description": self.description}
        if self.label is not None:
            doc["label"] = self.label
        if self.parameters:
            doc["parameters"] = thaw(self.parameters)
        return doc

    @classmethod
    def from_json(cls, doc: Mapping[str, JSON]) -> Method:
        """Build a method from its manifest form; raises MalformedDocument on a wrong shape."""
        if not isinstance(doc, Mapping):
            raise MalformedDocument(field="methods", reason=f"must hold mappings, not {type(doc).__name__}")
        return cls(
            name=_field(doc, "name", str),
            kind=_enum(MethodKind, _field(doc, "kind", str), "kind"),
            description=_field(doc, "description", str, ""),
            parameters=_field(doc, "parameters", dict, {}),
            label=_field(doc, "label", str, None),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Manifest:
    """A plugin's declaration: identity, methods, dependencies and sleep settings."""

    name: str
    module_name: str
    version: str
    description: str
    author: str = ""
    url: str = ""
    dependencies: tuple[str, ...] = ()
    config_defaults: Mapping[str, JSON] = EMPTY
    config_schema: Mapping[str, JSON] | None = None
    methods: tuple[Method, ...] = ()
    injects_prompt: bool = False
    hooks: tuple[str, ...] = ()
    builtin: bool = False
    support_adapter: tuple[str, ...] = ()
    allow_sleep: bool | None = None
    sleep_brief: str = ""
    extensions: Mapping[str, JSON] = EMPTY

    def __post_init__(self) -> None:
        for name in ("dependencies", "methods", "hooks", "support_adapter"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        for name in ("config_defaults", "extensions"):
            object.__setattr__(self, name, FrozenMap(getattr(self, name)))
        if self.config_schema is not None:
            object.__setattr__(self, "config_schema", FrozenMap(self.config_schema))

    @property
    def brief(self) -> str:
        """The sleep brief with surrounding Unicode white space removed ('' when blank)."""
        return self.sleep_brief.strip(WHITE_SPACE)

    def supports(self, adapter: str | None) -> bool:
        """Whether a conversation on ``adapter`` may see this plugin (None: any adapter)."""
        return adapter is None or not self.support_adapter or adapter in self.support_adapter

    def to_json(self) -> dict[str, JSON]:
        """Return the manifest document (defaults left out)."""
        doc: dict[str, JSON] = {
            "name": self.name,
            "module_name": self.module_name,
            "version": self.version,
            "description": self.description,
        }
        optional: dict[str, JSON] = {
            "author": self.author,
            "url": self.url,
            "dependencies": list(self.dependencies),
            "methods": [m.to_json() for m in self.methods],
            "injects_prompt": self.injects_prompt,
            "hooks": list(self.hooks),
            "builtin": self.builtin,
            "support_adapter": list(self.support_adapter),
            "sleep_brief": self.sleep_brief,
        }
        doc.update({k: v for k, v in optional.items() if v})
        if self.config_defaults or self.config_schema is not None:
            doc["config"] = {"defaults": thaw(self.config_defaults)}
            if self.config_schema is not None:
                doc["config"]["schema"] = thaw(self.config_schema)
        if self.allow_sleep is not None:
            doc["allow_sleep"] = self.allow_sleep
        doc.update(thaw(self.extensions))
        return doc

    @classmethod
    def from_json(cls, doc: Mapping[str, JSON]) -> Manifest:
        """Build a manifest from its document; raises MalformedDocument on a wrong shape."""
        if not isinstance(doc, Mapping):
            raise MalformedDocument(field="", reason="a manifest must be a mapping")
        config = _field(doc, "config", dict, {})
        allow_sleep = doc.get("allow_sleep")
        if allow_sleep is not None and not isinstance(allow_sleep, bool):
            raise MalformedDocument(field="allow_sleep", reason="must be true, false or null")
        methods = _field(doc, "methods", list, [])
        return cls(
            name=_field(doc, "name", str),
            module_name=_field(doc, "module_name", str),
            version=_field(doc, "version", str, "0.0.0"),
            description=_field(doc, "description", str, ""),
            dependencies=_strings(doc, "dependencies"),
            config_defaults=_field(config, "defaults", dict, {}),
            config_schema=_field(config, "schema", dict, None),
            methods=tuple(Method.from_json(m) for m in methods),
            hooks=_strings(doc, "hooks"),
            support_adapter=_strings(doc, "support_adapter"),
            allow_sleep=allow_sleep,
            extensions={k: v for k, v in doc.items() if k.startswith("x-")},
            **_present(doc, {"author": str, "url": str, "injects_prompt": bool, "builtin": bool, "sleep_brief": str}),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class HostConfig:
    """An admin's host configuration: what is loaded, strategies, the scheduler switch.

    Its hash is computed once, on construction: a config is a cache key at every run
    (``reference_impl.fast``). It covers the enabled list's length and last names rather than
    every name (hashing 10,000 names would cost more than the lookup it serves); configs that
    differ only inside that list hash alike and still compare unequal.
    """

    enabled: tuple[str, ...] = ()
    disabled: frozenset[str] = frozenset()
    strategies: Mapping[str, Strategy] = EMPTY
    scheduler_enabled: bool = True
    config: Mapping[str, Mapping[str, JSON]] = EMPTY
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "enabled", tuple(self.enabled))
        object.__setattr__(self, "disabled", frozenset(self.disabled))
        object.__setattr__(self, "strategies", FrozenMap.shallow(self.strategies))  # Strategy members
        object.__setattr__(self, "config", FrozenMap(self.config))
        enabled = (len(self.enabled), self.enabled[-4:])  # an admin's enable appends at the end
        object.__setattr__(self, "_hash", hash((enabled, self.disabled, self.strategies, self.scheduler_enabled, self.config)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt through the constructor, so that the hash is computed again in the new process.
        return (_rebuild, (HostConfig, {name: getattr(self, name) for name in _HOST_FIELDS}))

    def strategy_for(self, module_name: str) -> Strategy:
        """The strategy set for a module (auto when none is set)."""
        return self.strategies.get(module_name, Strategy.AUTO)

    def to_json(self) -> dict[str, JSON]:
        """Return the host-config document."""
        doc: dict[str, JSON] = {
            "enabled": list(self.enabled),
            "disabled": sorted(self.disabled),
            "strategies": {m: s.value for m, s in sorted(self.strategies.items())},
            "scheduler_enabled": self.scheduler_enabled,
        }
        if self.config:
            doc["config"] = thaw(self.config)
        return doc

    @classmethod
    def from_json(cls, doc: Mapping[str, JSON]) -> HostConfig:
        """Build a host config from its document; raises MalformedDocument on a wrong shape."""
        if not isinstance(doc, Mapping):
            raise MalformedDocument(field="", reason="a host config must be a mapping")
        strategies = _field(doc, "strategies", dict, {})
        config = _field(doc, "config", dict, {})
        for module, layer in config.items():
            if not isinstance(layer, Mapping):
                raise MalformedDocument(field=f"config/{module}", reason=f"must be a mapping, not {type(layer).__name__}")
        return cls(
            enabled=_strings(doc, "enabled"),
            disabled=frozenset(_strings(doc, "disabled")),
            strategies={m: _enum(Strategy, s, f"strategies/{m}") for m, s in strategies.items()},
            config=config,
            **_present(doc, {"scheduler_enabled": bool}),
        )


_HOST_FIELDS = ("enabled", "disabled", "strategies", "scheduler_enabled", "config")


class Profile(enum.StrEnum):
    """The spec's profiles: what an implementation claims and what a requirement or scenario belongs to."""

    ACTIVATION = "activation"
    TEXT = "text"
    HOST = "host"
    DISCLOSURE = "disclosure"


@dataclass(frozen=True, slots=True, kw_only=True)
class ImplementationInfo:
    """Who an implementation is and which spec profiles it claims (names of :class:`Profile`, or others it invents).

    ``disclosure`` holds the options it declares with the disclosure profile (None: it
    declares none, and every option takes its default; see :attr:`disclosure_options`).
    """

    name: str
    version: str
    language: str
    profiles: tuple[str, ...]
    disclosure: Options | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "profiles", tuple(self.profiles))

    @property
    def disclosure_options(self) -> Options:
        """The declared disclosure options, the defaults where none are declared."""
        return self.disclosure if self.disclosure is not None else Options()

    def to_json(self) -> dict[str, JSON]:
        """Return the wire form (the result of the stdio ``hello`` command)."""
        doc: dict[str, JSON] = {"name": self.name, "version": self.version, "language": self.language,
                                "profiles": list(self.profiles)}
        if self.disclosure is not None:
            doc["disclosure"] = self.disclosure.to_json()
        return doc

    @classmethod
    def from_json(cls, doc: Mapping[str, JSON]) -> ImplementationInfo:
        """Build from the wire form; raises MalformedDocument on a wrong shape."""
        declared = _field(doc, "disclosure", dict, None)
        return cls(
            name=_field(doc, "name", str),
            version=_field(doc, "version", str),
            language=_field(doc, "language", str, ""),
            profiles=_strings(doc, "profiles"),
            disclosure=None if declared is None else Options.from_json(declared),
        )
