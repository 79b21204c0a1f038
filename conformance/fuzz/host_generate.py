"""Host fuzz cases from tables of values, one ``choose(options)`` function at a time.

The same shape as :mod:`conformance.fuzz.generate`: every value is a row of a table here,
picked by ``random.Random(seed).choice``. A case installs one to five plugins named from one of
:data:`NAME_SETS` (two of which make environment variables ambiguous: ``weather`` beside
``weather_api``, ``Weather`` beside ``weather``), built-in or not, with dependencies on each
other (cycles and self-dependencies included), on a plugin nobody installed and on disabled or
left-out ones; hooks; configuration defaults (nested, with keys differing only in case) and
schemas (one the merged configuration breaks, one that cannot be used). The host config lists
them in a random order (set-up order ties follow it), leaves some out, disables some, names one
nobody installed, and writes file-layer values (one for no installed plugin). Every load has its
own environment (``PAS__`` variables for any plugin in any case, ``pas__`` and other prefixes,
empty and missing keys, values that are JSON, ``NaN`` and ``Infinity``, padded, non-ASCII, empty
or holding ``=``; listed in no particular order) and ``--set`` overrides (exact, another case,
``=`` inside the value, malformed, for a plugin not installed or not loaded), and its own
behaviour (failing setups, hooks that raise). After the first load come starts, stops, hooks
dispatched with and without a conversation, conversations opened before and after the start,
reloads and configuration reads of loaded, unloaded and unknown plugins, and loads again.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from conformance.fuzz.host_case import HostCase
from reference_impl.host_commands import (
    Behaviour,
    Dispatch,
    HostCommand,
    Load,
    OpenConversation,
    ReadConfig,
    Reload,
    Start,
    Stop,
)
from reference_impl.model import HostConfig, Manifest

Choose = Callable[[Sequence[Any]], Any]

UNKNOWN: Final = "ghost"  # depended on, enabled, configured and named, never installed
MAX_STEPS: Final = 40
#: Module-name sets: a case installs the first one to five of one of them.
NAME_SETS: Final = (
    ("core", "memory", "notes", "weather", "dice"),
    ("core", "memory", "notes", "weather", "dice"),
    ("weather", "weather_api", "dice", "notes"),  # PAS__WEATHER__API__X could be either's
    ("Weather", "weather", "memory", "Memory_x"),  # PAS__WEATHER__X could be either's
    ("a", "b", "c", "d", "e"),
)
BUILTIN: Final = (False,) * 5 + (True,)
DEPENDENCY_COUNTS: Final = (0,) * 7 + (1, 1, 1, 2)
HOOKS: Final = ("on_message", "before_tool_call", "session_end")
HOOK_SETS: Final = ((), ("on_message",), ("on_message", "before_tool_call"), HOOKS, ("session_end",))
#: Configuration defaults: none, nested mappings, keys that differ only in case, lists and empty mappings.
DEFAULTS: Final[tuple[dict[str, Any], ...]] = (
    {}, {}, {"units": "metric", "api": {"timeout_s": 5, "retries": 2}},
    {"api": {"host": "localhost"}, "API": {"port": 80}}, {"tags": ["a", "b"], "empty": {}, "label": "007"},
    {"Units": "metric", "nested": {"deep": {"x": 1}}},
)
#: Configuration schemas: none, one the usual configurations meet or break, one that is no schema, an outside $ref.
SCHEMAS: Final = (
    *(None,) * 10, {"type": "object", "required": ["store"]},
    {"type": "object", "properties": {"api": {"type": "object", "properties": {"timeout_s": {"type": "integer"}}}}},
    {"properties": {"units": {"enum": ["metric", "imperial"]}}}, {"properties": {"units": {"type": "string", "maxLength": 6}}},
    {"type": "nope"}, {"$ref": "https://example.com/config.schema.json"},
)
#: A plugin's file-layer config (None: no entry).
FILE_VALUES: Final[tuple[dict[str, Any] | None, ...]] = (None, None, None, {"api": {"timeout_s": 10}}, {"units": "imperial"}, {"api": 3},
                      {"tags": []}, {"nested": {"deep": {"y": 2}}}, {})
#: Per plugin: (left out of enabled, disabled), mostly (False, False).
PLACEMENTS: Final = ((False, False),) * 5 + ((True, False), (False, True))
GHOSTS: Final = (False,) * 4 + (True,)  # an enabled entry, a config entry for no installed plugin
#: ``PAS__`` and the prefixes that are not it.
PREFIXES: Final = ("PAS__",) * 6 + ("pas__", "Pas__", "PAS_")
MODULE_CASES: Final = (str.upper,) * 3 + (str.lower, str)
#: The keys of a variable after its module: nested, in any case, empty, missing, or none.
ENV_KEYS: Final = ("UNITS", "API__TIMEOUT_S", "API", "API__HOST", "Api__Retries", "units", "NEW_KEY", "TAGS",
                   "__X", "X____Y", None)
#: Values of variables and overrides: JSON of each type, what is not JSON, and what looks like it.
VALUES: Final = ("imperial", "10", "3.5", " metric ", "NaN", "Infinity", "-Infinity", "null", "true", '{"retries": 5}',
                 "[1, 2]", "天气", "007", "1e5", "", "a=b", "  ", "https://x/?a=b", '"quoted"', "\u00a0x\u3000")
ENV_COUNTS: Final = (0, 0, 1, 1, 2, 3, 4)
OVERRIDE_COUNTS: Final = (0, 0, 1, 1, 2, 3)
OVERRIDE_KEYS: Final = ("units", "api.timeout_s", "api", "url", "Units", "api.retries", "tags")
#: (how the module is named, key) of an override: exactly, in another case, unknown, or malformed.
OVERRIDE_SHAPES: Final = ("exact",) * 6 + ("upper", "ghost", "no_key", "empty_key", "no_equals")
#: Whether a case is tidy: every plugin enabled, no ghost, no unknown or self dependency, no schema.
TIDY: Final = (False, False, True)
#: Whether the last plugin of a case depends on all the others (and the first on the one before the last).
FAN_IN: Final = (False, False, True)
#: How often a load's plugins fail their setup: one in six, or one in two.
FAILURE_RATES: Final = (((False,) * 5 + (True,)),) * 2 + ((False, True),)
RAISES: Final = (False,) * 3 + (True,)
CONVERSATIONS: Final = ("", "", "c1", "c2")
#: The commands after the first load, dispatches and reads most often; a load again now and then (a load
#: costs fifty times what another command does: most of a case's commands work on what its loads did).
HEADS: Final = ("start",) * 4 + ("dispatch",) * 7 + ("open",) * 2 + ("reload",) * 3 + ("read",) * 6 + (
    "stop",) * 2 + ("load",) * 1


def _pick_some(choose: Choose, pool: Sequence[str], count: int) -> tuple[str, ...]:
    """Up to ``count`` distinct names of ``pool`` (where a name may be listed more than once, to weight it)."""
    left, picked = list(pool), []
    for _ in range(count):
        if not left:
            break
        picked.append(choose(left))
        left = [name for name in left if name != picked[-1]]
    return tuple(picked)


def build_plugins(choose: Choose, *, tidy: bool = False) -> tuple[Manifest, ...]:
    """One to five plugins of one name set, with dependencies, hooks, config defaults and schemas.

    ``tidy``: no dependency on a plugin nobody installed or on itself, no schema (so that most
    of them get as far as their setup, and the lifecycle beyond it is reached).

    In a fan-in case (:data:`FAN_IN`) the last plugin depends on every other one, and the first
    on the one before the last: one plugin waits for several, one of which is set up later than
    its place in the load order (when several of them fail, a skip's cause is the earliest
    loaded, not the earliest set up: HOST-LIFE-5).
    """
    names, fan_in = choose(NAME_SETS), choose(FAN_IN)
    names = names if fan_in else names[: choose(range(1, len(names) + 1))]  # a fan-in: the whole set
    plugins = []
    for name in names:
        others = tuple(n for n in names if n != name)
        if fan_in and name == names[-1]:
            dependencies = others
        elif fan_in and len(names) > 2 and name == names[0]:
            dependencies = (names[-2],)
        else:
            pool = others if tidy else (*others * 3, UNKNOWN, name)
            dependencies = _pick_some(choose, pool, choose(DEPENDENCY_COUNTS))
        plugins.append(Manifest(name=name.replace("_", " ").title(), module_name=name, version="1.0.0",
                                description=f"The {name} test plugin.", builtin=choose(BUILTIN),
                                dependencies=dependencies, hooks=choose(HOOK_SETS), config_defaults=choose(DEFAULTS),
                                config_schema=None if tidy else choose(SCHEMAS)))
    return tuple(plugins)


def build_host(choose: Choose, plugins: tuple[Manifest, ...], *, tidy: bool = False) -> HostConfig:
    """The plugins enabled in a random order (some left out, some disabled), file-layer config, now and then a ghost.

    ``tidy``: every plugin enabled, none disabled, no ghost.
    """
    others = [m.module_name for m in plugins if not m.builtin]
    enabled, disabled, config = [], set(), {}
    for name in _pick_some(choose, others, len(others)):
        left_out, off = (False, False) if tidy else choose(PLACEMENTS)
        if not left_out:
            enabled.append(name)
        if off:
            disabled.add(name)
    for plugin in plugins:
        value = choose(FILE_VALUES)
        if value is not None:
            config[plugin.module_name] = value
    if choose(GHOSTS) and not tidy:
        enabled.append(UNKNOWN)
    if choose(GHOSTS) and not tidy:
        config[UNKNOWN] = {"x": 1}
    return HostConfig(enabled=tuple(enabled), disabled=frozenset(disabled), config=config)


def _variable(choose: Choose, names: Sequence[str]) -> str:
    module = choose((*names, UNKNOWN))
    key = choose(ENV_KEYS)
    return choose(PREFIXES) + choose(MODULE_CASES)(module) + ("" if key is None else f"__{key}")


def _override(choose: Choose, names: Sequence[str], value: str) -> str:
    shape, module, key = choose(OVERRIDE_SHAPES), choose(names), choose(OVERRIDE_KEYS)
    if shape == "upper":
        module = module.upper() if module != module.upper() else module.lower()
    elif shape == "ghost":
        module = UNKNOWN
    elif shape == "no_key":
        return f"{module}={value}"
    elif shape == "empty_key":
        return f"{module}..{key}={value}"
    elif shape == "no_equals":
        return f"{module}.{key}"
    return f"{module}.{key}={value}"


def build_load(choose: Choose, plugins: tuple[Manifest, ...], host: HostConfig) -> Load:
    """A load of the case's plugins with an environment, overrides and a behaviour of its own."""
    names = [m.module_name for m in plugins]
    environment = {_variable(choose, names): choose(VALUES) for _ in range(choose(ENV_COUNTS))}
    overrides = tuple(_override(choose, names, choose(VALUES)) for _ in range(choose(OVERRIDE_COUNTS)))
    rate = choose(FAILURE_RATES)
    fails = frozenset(n for n in names if choose(rate))
    raises = {m.module_name: frozenset(h for h in m.hooks if choose(RAISES)) for m in plugins}
    behaviour = Behaviour(setup_fails=fails, hook_raises={m: h for m, h in raises.items() if h})
    return Load(plugins=plugins, host=host, environment=environment, overrides=overrides, behaviour=behaviour)


def build_command(choose: Choose, plugins: tuple[Manifest, ...], host: HostConfig) -> HostCommand:
    """One command after the first load."""
    head = choose(HEADS)
    names = (*(m.module_name for m in plugins), UNKNOWN)
    if head == "start":
        return Start()
    if head == "stop":
        return Stop()
    if head == "dispatch":
        return Dispatch(hook=choose((*HOOKS, "on_unknown")), conversation=choose(CONVERSATIONS))
    if head == "open":
        return OpenConversation(conversation=choose(CONVERSATIONS[2:]))
    if head == "reload":
        return Reload(module_name=choose(names))
    if head == "read":
        return ReadConfig(module_name=choose(names))
    return build_load(choose, plugins, host)


def build_host_case(choose: Choose, steps: int) -> HostCase:
    """A whole case: plugins, a host config, a load of them and ``steps`` - 1 more commands.

    One case in three is tidy (:data:`TIDY`): its plugins are all there and valid unless a load
    says otherwise, so that starts, failures, skips, hooks and reloads have plugins to work on.
    """
    tidy = choose(TIDY)
    plugins = build_plugins(choose, tidy=tidy)
    host = build_host(choose, plugins, tidy=tidy)
    events: list[HostCommand] = [build_load(choose, plugins, host)]
    events += [build_command(choose, plugins, host) for _ in range(steps - 1)]
    return HostCase(plugins=plugins, host=host, events=tuple(events))


def generate_host_case(seed: int, steps: int) -> HostCase:
    """The case of ``seed``: the same seed and length give the same case on every run and machine."""
    return build_host_case(random.Random(seed).choice, steps)
