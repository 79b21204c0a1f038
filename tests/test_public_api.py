"""The public face of the two packages: ``__all__`` of ``reference_impl`` and ``conformance``.

Each ``__init__.py`` lists its public names in ``_EXPORTS`` (name -> defining module) and imports
the same names under ``TYPE_CHECKING`` for type checkers and the API page; the names are handed
on lazily. These tests hold the table, the typing imports and the objects together, and check
what importing costs: nothing for the packages, and never the rules for the vocabulary.
"""

from __future__ import annotations

import ast
import importlib
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import conformance
import reference_impl

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"reference_impl": reference_impl, "conformance": conformance}
# The reference's rules and the edges built on them: what the vocabulary must not import.
RULES = ("scheduler", "render", "fast", "engine", "eligibility", "catalogue", "semantics", "spec_files",
         "host", "host_config", "lifecycle", "disclosure")
# What an implementation speaks; the issue names these among them.
VOCABULARY = ("model", "events", "host_commands", "host_observations", "problems", "errors", "frozen",
              "disclosure_options", "disclosure_commands", "disclosure_answers")


def _target(package: str, name: str) -> tuple[str, str]:
    """(absolute module, attribute) that ``package.name`` hands on, from the package's table."""
    module, _, attribute = PACKAGES[package]._EXPORTS[name].partition(":")
    return importlib.util.resolve_name(module, package), attribute or name


def typing_imports(package: str) -> dict[str, tuple[str, str]]:
    """Public name -> (module, attribute) as the ``if TYPE_CHECKING:`` block of ``package``'s __init__ says."""
    tree = ast.parse((ROOT / package / "__init__.py").read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING")
    imported, named = {}, {}
    for node in block.body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                imported[alias.asname or alias.name] = (node.module, alias.name)
        elif isinstance(node, ast.Assign):  # `public = _imported`: a name of its own
            named[node.targets[0].id] = imported.pop(node.value.id)
    return {**imported, **named}


@pytest.mark.parametrize("package", PACKAGES)
def test_all_is_the_table_and_the_typing_imports_say_the_same(package):
    module = PACKAGES[package]
    table = {name: _target(package, name) for name in module._EXPORTS}
    assert [n for n in module.__all__ if n != "__version__"] == list(table)
    assert typing_imports(package) == table, (
        f"{package}/__init__.py: each name of _EXPORTS is imported under TYPE_CHECKING from the same module, "
        f"as `from MODULE import NAME as NAME`, and nothing else is")


@pytest.mark.parametrize(("package", "name"), [(p, n) for p, m in PACKAGES.items() for n in m._EXPORTS])
def test_every_public_name_is_the_object_its_module_defines(package, name):
    module_name, attribute = _target(package, name)
    assert getattr(PACKAGES[package], name) is getattr(importlib.import_module(module_name), attribute)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_public_name_is_also_a_submodule(package):
    """Importing a submodule sets the package attribute of its name: a public name must not be one."""
    submodules = {info.name for info in pkgutil.iter_modules(PACKAGES[package].__path__)}
    assert submodules & set(PACKAGES[package]._EXPORTS) == set()


@pytest.mark.parametrize("package", PACKAGES)
def test_an_unknown_name_is_an_attribute_error_and_dir_lists_the_public_names(package):
    module = PACKAGES[package]
    with pytest.raises(AttributeError, match=f"module '{package}' has no attribute 'no_such_name'"):
        module.no_such_name  # noqa: B018 - the access is the test
    assert set(module.__all__) <= set(dir(module))


def _loaded_after(code: str) -> list[str]:
    """The reference_impl and conformance modules loaded by ``code`` in a fresh interpreter."""
    probe = code + "\nimport json, sys\nprint(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('reference_impl', 'conformance'))))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def test_importing_the_packages_imports_nothing_else():
    assert _loaded_after("import conformance, reference_impl") == ["conformance", "reference_impl", "reference_impl.exports"]


def test_the_vocabulary_comes_without_the_rules():
    names = [n for n, target in reference_impl._EXPORTS.items() if target.lstrip(".") in VOCABULARY]
    assert {"Manifest", "HostConfig", "ImplementationInfo", "RunObservation", "PluginView", "CallObservation",
            "AdminObservation", "StartRun", "Activate", "PluginState", "HostObservation", "HostCommand"} <= set(names)
    loaded = _loaded_after(f"from reference_impl import {', '.join(names)}")
    assert [m for m in loaded if m.removeprefix("reference_impl.") in RULES] == []
    assert set(loaded) <= {"reference_impl", "reference_impl.exports", *(f"reference_impl.{m}" for m in VOCABULARY)}


def test_the_rules_are_there_for_whoever_copies_them():
    from reference_impl import Catalogue, Engine, SchedulerState, StartRun, load_semantics, step

    assert Engine().info.name == "pas-reference"
    state, observation = step(Catalogue(), SchedulerState(), StartRun(conversation="c"), load_semantics())
    assert observation.plugins == ()


def test_a_name_whose_module_needs_a_missing_package_says_what_to_install():
    code = ("import sys; sys.modules['hypothesis'] = None\n"
            "try:\n    from conformance import scheduler_state_machine\n"
            "except ImportError as error:\n    print(error)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == ("conformance.scheduler_state_machine needs hypothesis, which is not installed: "
                                   "pip install hypothesis (PAS's fuzz extra)")


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_docstring_states_the_rule(package):
    doc = " ".join(PACKAGES[package].__doc__.split())
    assert "The public API is the names in ``__all__``, and only those" in doc
    assert "Every submodule" in doc and "is internal" in doc
