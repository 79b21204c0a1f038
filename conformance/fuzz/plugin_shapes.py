"""What a generated activation plugin looks like: its names, display name, methods and brief, as tables.

:mod:`conformance.fuzz.generate` picks rows of these tables with one ``choose(options)``
function (``random.Random(seed).choice``, or a Hypothesis draw). Each table holds what a
scenario file can say and what an implementation in some language gets wrong:

- **Module names** (:data:`NAME_SETS`): the classic lower-case ``alpha`` ... ``theta``; names in
  both cases, whose code-point order (upper case first) is not their order ignoring case; names
  that sort just before and after ``plugin_activation`` and a case-variant of it; names of one
  character and of 64; names with digits, whose code-point order is not their numeric order.
- **Display names** (:data:`DISPLAY_STYLES`): the title-cased module name, and names unlike it:
  in the reverse order of the module names (a sort by display name shows), non-ASCII, with
  quotes, an apostrophe and XML specials, padded with white space.
- **Methods** (:data:`METHOD_COUNTS`, :data:`METHOD_ROWS`, :data:`DESCRIPTIONS`): none to three,
  tools and agents, descriptions plain, empty (no entry), white space only (an entry with an
  empty description), padded, starting or ending with U+001C..U+001F (not White_Space, which
  Python's ``str.strip()`` removes), holding quotes and XML specials, on two lines.
- **Briefs** (:data:`BRIEF_GROUPS`): text most of the time; then every Unicode White_Space
  character alone (:data:`WHITE_SPACE_BRIEFS`); every character that is not White_Space but
  that some language's trim removes or that looks blank (:data:`NOT_WHITE_SPACE_BRIEFS`:
  U+FEFF, U+001C..U+001F, U+200B, U+180E); and text padded with both, or holding XML specials.

The module-name sets never hold ``plugin_activation`` or ``ghost`` (the scheduler, and the
name no case installs).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, Final

from reference_impl.model import WHITE_SPACE, Manifest, Method, MethodKind

Choose = Callable[[Sequence[Any]], Any]

NAMES: Final = ("alpha", "beta", "gamma", "theta")  # theta sorts after plugin_activation
#: Module-name sets: a case's plugins are named by one of them, in order. The classic set most often.
NAME_SETS: Final = (
    NAMES, NAMES, NAMES, NAMES,
    ("Beta", "alpha", "Delta", "gamma"),  # code point: Beta Delta alpha gamma; ignoring case: alpha Beta Delta gamma
    ("plugin_activatio", "plugin_activation_x", "Plugin_activation", "plugin_b"),  # around plugin_activation
    ("x", "_z", "Z", "w" * 64),  # one character, an underscore (between the cases), 64 characters
    ("tool10", "tool2", "TOOL", "tool_"),  # digits sort by code point, not by number
)
#: The title-cased module name: what every plugin had before display names were varied.
TITLE: Final = "title"
#: Display-name styles: the i-th plugin of a case takes the i-th name of its style's row.
DISPLAY_ROWS: Final = {
    "reverse": ("Zeta tools", "Yak shaver", "Xylophone", "Walrus"),  # the reverse of every module-name order
    "non_ascii": ("天气预报", "Émile’s café", "Ωμέγα", "ñandú"),
    "markup": ("Bob's \"tool\"", "<b>Bold</b> & co", "A > B", "it's & <it's>"),
    "padded": (" Padded ", "\u3000全角\u3000", "tab\there", "trailing\u00a0"),
}
DISPLAY_STYLES: Final = (TITLE,) * 5 + tuple(DISPLAY_ROWS)
#: How many methods a plugin has: one most often, but none and several too.
METHOD_COUNTS: Final = (1, 1, 1, 1, 0, 2, 3)
#: (name, kind) of a plugin's first, second and third method; ``{}`` is the module name.
METHOD_ROWS: Final = (("use_{}", MethodKind.TOOL), ("Stop_after", MethodKind.AGENT), ("_helper", MethodKind.TOOL))
PLAIN_DESCRIPTION: Final = "Use {}."
#: Method descriptions, the plain one (``{}``: the module name) most often.
DESCRIPTIONS: Final = (
    *(PLAIN_DESCRIPTION,) * 6,
    "",  # empty: the method gets no entry (TXT-LAYOUT-5)
    " ", "\u3000\t", "\u0085",  # white space only: an entry with an empty description
    "  Padded with spaces.\u00a0", "\u001fStarts with a unit separator.", "Ends with a file separator.\u001c",
    "Quotes \"double\" and 'single', <tags> & ampersands.", "Line one.\nLine two.",
)
CLASSIC_BRIEF: Final = "Reads the weather. Activate for forecasts."
TEXT_BRIEFS: Final = (CLASSIC_BRIEF,)
#: Every Unicode White_Space character alone (a blank brief), and two of them together.
WHITE_SPACE_BRIEFS: Final = (*WHITE_SPACE, " \t\n", "\u3000\u00a0\u2028")
#: Characters that are not White_Space alone (a brief that is not blank): U+FEFF, which JavaScript's
#: trim removes; U+001C..U+001F, which Python's str.strip() removes; U+200B and U+180E, which look blank.
NOT_WHITE_SPACE_BRIEFS: Final = ("\ufeff", "\u001c", "\u001d", "\u001e", "\u001f", "\u200b", "\u180e")
#: Empty, text padded with white space of both kinds, and text the text profile must escape.
OTHER_BRIEFS: Final = ("", "\u3000 查天气：需要预报时激活。\u00a0\n", "\ufeffReads the news.\u001f",
                       'Finds <news> & "quotes" for you.', "\u0085\u2029\u202f\u1680\u2003")
#: Brief groups, text most often: a plugin picks a group, then a brief of it.
BRIEF_GROUPS: Final = (TEXT_BRIEFS,) * 5 + (WHITE_SPACE_BRIEFS, NOT_WHITE_SPACE_BRIEFS, OTHER_BRIEFS)
#: Every brief a plugin may have.
BRIEFS: Final = tuple(dict.fromkeys(b for group in BRIEF_GROUPS for b in group))


def title(module_name: str) -> str:
    """The classic display name of a module: ``plugin_b`` -> ``Plugin B``."""
    return module_name.replace("_", " ").title().strip() or module_name


@functools.cache
def methods(module_name: str, descriptions: tuple[str, ...]) -> tuple[Method, ...]:
    """One method per description, named and kinded by :data:`METHOD_ROWS`; the plain description names the module."""
    return tuple(Method(name=name.format(module_name), kind=kind,
                        description=PLAIN_DESCRIPTION.format(module_name) if text == PLAIN_DESCRIPTION else text)
                 for (name, kind), text in zip(METHOD_ROWS, descriptions))


def pick_display_name(choose: Choose, module_name: str, index: int) -> str:
    """The display name of a case's ``index``-th plugin: its title most often, else a row's name."""
    style = choose(DISPLAY_STYLES)
    return title(module_name) if style == TITLE else DISPLAY_ROWS[style][index % len(DISPLAY_ROWS[style])]


def pick_descriptions(choose: Choose) -> tuple[str, ...]:
    """The descriptions of a plugin's methods, one per method (none to three)."""
    return tuple(choose(DESCRIPTIONS) for _ in range(choose(METHOD_COUNTS)))


def pick_brief(choose: Choose) -> str:
    """A sleep brief: a group of :data:`BRIEF_GROUPS`, then one of its briefs."""
    return choose(choose(BRIEF_GROUPS))


@functools.cache
def manifest(name: str, *, allow_sleep: bool | None = True, brief: str = CLASSIC_BRIEF, builtin: bool = False,
             injects: bool = False, support_adapter: tuple[str, ...] = (), display: str | None = None,
             descriptions: tuple[str, ...] = (PLAIN_DESCRIPTION,)) -> Manifest:
    """A small plugin manifest: the given eligibility fields and flags, one method per description.

    ``display`` None is the title-cased module name.
    """
    return Manifest(
        name=title(name) if display is None else display, module_name=name, version="1.0.0",
        description=f"The {name} test plugin.", methods=methods(name, descriptions), allow_sleep=allow_sleep,
        sleep_brief=brief, builtin=builtin, injects_prompt=injects, support_adapter=support_adapter,
    )


def reshaped(plugin: Manifest, **changes: Any) -> Manifest:
    """``plugin`` built again by :func:`manifest` with some of its shape changed (the minimiser's simplifications).

    ``changes`` are :func:`manifest`'s keyword arguments; ``name`` renames the plugin (its methods
    follow, and a title-cased display name becomes the new name's).
    """
    shape: dict[str, Any] = {
        "allow_sleep": plugin.allow_sleep, "brief": plugin.sleep_brief, "builtin": plugin.builtin,
        "injects": plugin.injects_prompt, "support_adapter": plugin.support_adapter,
        "display": None if plugin.name == title(plugin.module_name) else plugin.name,
        "descriptions": descriptions_of(plugin),
    }
    shape.update(changes)
    return manifest(shape.pop("name", plugin.module_name), **shape)


def descriptions_of(plugin: Manifest) -> tuple[str, ...]:
    """The descriptions of ``plugin``'s methods as :func:`manifest` takes them (the plain one as its template)."""
    plain = PLAIN_DESCRIPTION.format(plugin.module_name)
    return tuple(PLAIN_DESCRIPTION if m.description == plain else m.description for m in plugin.methods)
