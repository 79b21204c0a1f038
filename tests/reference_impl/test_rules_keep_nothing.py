"""The rules read without any cache: nothing in them remembers anything between two calls.

reference_impl/scheduler.py, render.py and eligibility.py are what the docs tell implementers to
read. A cache there (a memo dict, an ``id()``-keyed table, a value mutated inside a frozen
dataclass, functools caching) would make them harder to read and to trust; caches live in the
fast path (reference_impl/fast.py), held to the rules by
tests/properties/test_fast_path_beside_the_rules.py. The values the rules work on (model, events,
catalogue) may only set their fields while being built (``__post_init__``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "reference_impl"
RULES = ("scheduler", "render", "eligibility")
VALUES = ("model", "events", "catalogue")  # what the rules take and return
_CACHING_MODULES = {"functools", "weakref"}


def caching_in(source: str) -> list[str]:
    """What in ``source`` keeps state between calls, as ``line: what``.

    Flags: importing functools or weakref; calling ``id``; a ``__missing__`` method (a memo
    dict); ``global`` or ``nonlocal``; ``__setattr__`` outside ``__post_init__`` (where a
    frozen value freezes what it was given); storing into ``self.<field>[...]`` (a frozen
    value's dict filled later); a class deriving from dict.
    """
    found: list[str] = []
    tree = ast.parse(source)
    building: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "__post_init__":
            building |= {id(inner) for inner in ast.walk(node)}
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            found += [f"{line}: imports {n}" for n in names if n.split(".")[0] in _CACHING_MODULES]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "id":
            found.append(f"{line}: id()")
        elif isinstance(node, ast.FunctionDef) and node.name == "__missing__":
            found.append(f"{line}: __missing__")
        elif isinstance(node, ast.Global | ast.Nonlocal):
            found.append(f"{line}: {type(node).__name__.lower()}")
        elif isinstance(node, ast.Attribute) and node.attr == "__setattr__" and id(node) not in building:
            found.append(f"{line}: __setattr__")
        elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute)
                and isinstance(t.value.value, ast.Name) and t.value.value.id == "self" for t in node.targets):
            found.append(f"{line}: stores into self.{ast.unparse(node.targets[0]).split('.', 1)[1]}")
        elif isinstance(node, ast.ClassDef) and any(
                isinstance(b, ast.Name | ast.Subscript) and ast.unparse(b).startswith("dict") for b in node.bases):
            found.append(f"{line}: a dict subclass")
    return sorted(found, key=lambda f: int(f.split(":")[0]))


@pytest.mark.parametrize("module", RULES + VALUES)
def test_the_rules_and_their_values_keep_nothing_between_calls(module: str) -> None:
    assert caching_in((PACKAGE / f"{module}.py").read_text(encoding="utf-8")) == []


def test_the_check_finds_the_caches_the_rules_once_had():
    """The text cache keyed by id(view), the resting views built in a dict's __missing__, and the like."""
    source = '''
import functools
class Views(dict[str, int]):
    def __missing__(self, key): return 0
def text(view, cache):
    return cache.get(id(view))
@dataclass(frozen=True)
class Facts:
    def hidden_on(self, adapter):
        object.__setattr__(self, "hidden", {})
        self.hidden[adapter] = frozenset()
    def __post_init__(self):
        object.__setattr__(self, "names", ())
'''
    assert [f.split(": ", 1)[1] for f in caching_in(source)] == [
        "imports functools", "a dict subclass", "__missing__", "id()", "__setattr__", "stores into self.hidden[adapter]"]
