"""Documented examples import only the public API.

A Python code block on a page (docs/**/*.md, README.md, examples/**/*.md) that imports from
``conformance`` or ``reference_impl`` may name only what their ``__all__`` lists, imported from
the package itself: a submodule path (``from reference_impl.events import ...``) is internal, and
so is a name the package does not export, whether imported or read as an attribute.
"""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

import pytest

import conformance
import reference_impl

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = {"conformance": set(conformance.__all__), "reference_impl": set(reference_impl.__all__)}
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>```+|~~~+)[ \t]*(?P<lang>[\w+-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)(?P=fence)[ \t]*$",
                   re.M | re.S)
PYTHON = {"python", "py", "python3", "pycon"}


def pages() -> list[Path]:
    """Every Markdown page whose examples readers copy: the site's sources, the README, the examples' READMEs."""
    found = [*(ROOT / "docs").rglob("*.md"), ROOT / "README.md", *(ROOT / "examples").rglob("*.md")]
    return sorted(p for p in found if "node_modules" not in p.parts)


def python_blocks(text: str) -> list[tuple[int, str]]:
    """(line of the block's first code line, code) of each Python block; ``>>>`` prompts are removed."""
    blocks = []
    for match in FENCE.finditer(text):
        if match.group("lang").lower() not in PYTHON:
            continue
        code = textwrap.dedent(match.group("body"))
        if ">>> " in code:
            code = "\n".join(line[4:] for line in code.splitlines() if line.startswith((">>> ", "... ")))
        blocks.append((text.count("\n", 0, match.start("body")) + 1, code))
    return blocks


def private_uses(code: str) -> list[tuple[int, str]]:
    """(line, what) for each import of an internal path or a name outside ``__all__``, and attribute reads too."""
    tree = ast.parse(code)
    found: list[tuple[int, str]] = []
    bound: dict[str, str] = {}  # local name -> package, for `import conformance` and `import reference_impl as r`
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            top = node.module.split(".")[0]
            if top not in PUBLIC:
                continue
            if node.module != top:
                found.append((node.lineno, f"{node.module} is internal: import from {top}"))
                continue
            found += [(node.lineno, f"{top}.{a.name} is not in {top}.__all__") for a in node.names
                      if a.name != "*" and a.name not in PUBLIC[top]]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top in PUBLIC and alias.name != top:
                    found.append((node.lineno, f"{alias.name} is internal: import from {top}"))
                elif top in PUBLIC:
                    bound[alias.asname or top] = top
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound:
            top = bound[node.value.id]
            if node.attr not in PUBLIC[top]:
                found.append((node.lineno, f"{top}.{node.attr} is not in {top}.__all__"))
    return sorted(found)


def _examples() -> list[tuple[str, int, str]]:
    return [(p.relative_to(ROOT).as_posix(), line, code) for p in pages()
            for line, code in python_blocks(p.read_text(encoding="utf-8"))
            if re.search(r"\b(conformance|reference_impl)\b", code)]


EXAMPLES = _examples()


def test_the_examples_that_import_the_packages_are_found():
    where = {path for path, _, _ in EXAMPLES}
    assert {"docs/api.md", "docs/guides/testing.md", "docs/guides/fuzzing.md", "docs/guides/host-profile.md"} <= where


@pytest.mark.parametrize(("path", "line", "code"), EXAMPLES, ids=[f"{p}:{n}" for p, n, _ in EXAMPLES])
def test_a_documented_example_imports_only_public_names(path, line, code):
    try:
        wrong = private_uses(code)
    except SyntaxError as error:
        pytest.fail(f"{path}:{line + (error.lineno or 1) - 1}: the example is not Python, so its imports cannot be "
                    f"checked: {error.msg}", pytrace=False)
    if wrong:
        pytest.fail("\n".join(f"{path}:{line + n - 1}: {what} (the public API is on docs/api.md)" for n, what in wrong),
                    pytrace=False)


def test_the_check_finds_internal_paths_and_names_outside_all():
    code = ("from reference_impl.events import RunObservation\n"
            "from conformance import run_suite, greet\n"
            "import conformance.suite.runner\n"
            "import reference_impl as r\n"
            "r.Manifest, r.render_block\n")
    assert private_uses(code) == [
        (1, "reference_impl.events is internal: import from reference_impl"),
        (2, "conformance.greet is not in conformance.__all__"),
        (3, "conformance.suite.runner is internal: import from conformance"),
        (5, "reference_impl.render_block is not in reference_impl.__all__"),
    ]
    assert private_uses("from conformance import run_suite\nfrom reference_impl import Manifest, __version__\n") == []


def test_blocks_are_read_with_their_language_indent_and_prompts():
    text = ("Text.\n\n```python\nimport a\n```\n\n```sh\npas run\n```\n\n"
            "1. Item\n\n    ```pycon\n    >>> from conformance import run_suite\n    >>> run_suite\n    ```\n")
    assert python_blocks(text) == [(4, "import a\n"), (14, "from conformance import run_suite\nrun_suite")]
