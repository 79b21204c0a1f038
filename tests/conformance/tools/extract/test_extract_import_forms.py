"""Every import form NekroAgent's loader follows reaches the method modules it loads; none is called unused.

NekroAgent imports a plugin package (collector.py: import_module), so Python runs every import that
runs at import time. Each fixture under fixtures/imports/ is a package whose method modules are
reached by one form only: inside try/except, under if/else (and `if TYPE_CHECKING:`, which never
runs), importlib.import_module with a literal, relative imports across a sub-package, and the
package's own absolute name. The top-level form is weather_pkg's (test_extract_source_forms.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.tools.extract.imports import DynamicImports, import_time
from conformance.tools.extract.nekro import extract
from conformance.tools.extract.sources import plugin_files, read_sources

FIXTURES = Path(__file__).resolve().parent / "fixtures"
IMPORTS = FIXTURES / "imports"


def _extract(path: Path):
    files, problems = plugin_files([str(path)])
    sources, found = read_sources(files)
    plugins, more = extract(sources)
    return plugins, problems + found + more


def _methods_and_unused(name: str) -> tuple[list[str], list[str]]:
    plugins, problems = _extract(IMPORTS / name)
    (plugin,) = plugins
    unused = sorted(Path(p.source.path).name for p in problems if p.code == "unimported-module")
    return [m.name for m in plugin.methods], unused


def test_the_top_level_form_reaches_every_imported_module():
    plugins, problems = _extract(FIXTURES / "weather_pkg")
    assert [m.name for m in plugins[0].methods] == ["weather_alerts", "get_forecast", "set_home"]
    assert [Path(p.source.path).name for p in problems if p.code == "unimported-module"] == ["orphan.py"]


@pytest.mark.parametrize(("package", "methods"), [
    ("try_pkg", ["from_try", "from_fallback"]),
    ("relative_pkg", ["from_subpackage"]),
    ("package_level_pkg", ["by_import_statement", "by_from_package"]),
])
def test_each_import_form_reaches_its_method_modules_in_import_order(package, methods):
    assert _methods_and_unused(package) == (methods, [])


def test_both_branches_of_an_if_count_and_a_type_checking_block_never_runs():
    methods, unused = _methods_and_unused("conditional_pkg")
    assert methods == ["from_if", "from_else"]
    assert unused == ["typing_only.py"]


def test_import_module_with_a_literal_is_followed_and_a_name_built_at_run_time_is_named_in_the_warning():
    plugins, problems = _extract(IMPORTS / "dynamic_pkg")
    assert [m.name for m in plugins[0].methods] == ["relative_literal", "absolute_literal"]
    (warning,) = [p for p in problems if p.code == "unimported-module"]
    assert Path(warning.source.path).name == "runtime_named.py"
    assert "dynamic_pkg/__init__.py:12:5" in warning.message and "never runs" not in warning.message


def test_statements_that_run_at_import_time_and_the_import_calls_among_them():
    import ast

    tree = ast.parse(
        "import importlib as il\nfrom importlib import import_module as im\n"
        "try:\n    im('.a')\nexcept ImportError:\n    il.import_module('b.c')\n"
        "class K:\n    __import__('d')\n"
        "def f():\n    il.import_module('never')\n"
        "if False:\n    il.import_module('dead')\nelse:\n    x = [il.import_module('..e')]\n"
        "other.import_module('not_importlib')\n")
    finder = DynamicImports()
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            finder.learn(node)
    found = [(d.level, d.module) for node in import_time(tree.body) for d in finder.find(node)]
    assert found == [(1, "a"), (0, "b.c"), (0, "d"), (2, "e")]
