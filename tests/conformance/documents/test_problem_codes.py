"""Every problem code is registered once (conformance.documents.codes), and every registered code is used.

Two checks on the source: the codes written as literals where problems are made, and each
registered code somewhere in the code. tests/conftest.py adds a third at run time: every
Problem that PAS's own code creates during the test session carries a registered code.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from conformance.documents.codes import CODES
from conformance.validate.lint.registry import RULES

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("conformance", "reference_impl")
# Files that register codes rather than emit them.
REGISTRIES = {Path("conformance/documents/codes.py"), Path("conformance/validate/lint/registry.py")}
KEBAB = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$|^schema$|^malformed$|^unreadable$")


def _sources() -> list[tuple[Path, str]]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if relative not in REGISTRIES and "scenarios" not in relative.parts:
                found.append((relative, path.read_text(encoding="utf-8")))
    return found


def _strings(node: ast.AST) -> list[str]:
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _emitted_literals() -> dict[str, str]:
    """Code literals where problems are made: ``code=...`` keywords, and kebab-case arguments of problem, warning, error and note helpers."""
    emitted: dict[str, str] = {}
    for relative, text in _sources():
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None) or ""
            candidates = [s for kw in node.keywords if kw.arg == "code" for s in _strings(kw.value) if KEBAB.match(s)]
            if re.search(r"problem|warning|error|note|misplaced", name.lower()):
                candidates += [s for arg in node.args for s in _strings(arg) if KEBAB.match(s)]
            for code in candidates:
                emitted.setdefault(code, f"{relative}:{node.lineno}")
    return emitted


def test_every_code_written_where_a_problem_is_made_is_registered():
    unregistered = {code: where for code, where in _emitted_literals().items() if code not in CODES}
    assert not unregistered, f"register these codes in conformance/documents/codes.py: {unregistered}"


def test_every_registered_code_is_emitted_somewhere():
    text = "\n".join(source for _, source in _sources())
    unused = [code for code in CODES if f'"{code}"' not in text]
    assert not unused, f"registered but emitted nowhere (remove them, or emit them): {unused}"


def test_every_lint_rule_is_a_registered_code_with_the_same_meaning():
    for code, rule in RULES.items():
        assert code in CODES, f"lint rule {code} is not in conformance/documents/codes.py"
        assert CODES[code].meaning == rule.summary, f"{code}: the lint summary and the registered meaning differ"


def test_codes_are_kebab_case_with_a_meaning_and_a_fix():
    for code, entry in CODES.items():
        assert re.fullmatch(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*", code), code
        assert entry.meaning and entry.fix and not entry.fix.endswith("."), code


def test_the_literal_scan_finds_codes_it_should(tmp_path):
    # The scan is the check: prove it sees both spellings of an emitted code.
    tree = ast.parse('Problem(code="made-up-code", message="x")\nmake_problem(rule, "other-made-up")\n')
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    seen = {s for call in calls for kw in call.keywords if kw.arg == "code" for s in _strings(kw.value)}
    seen |= {s for call in calls for arg in call.args for s in _strings(arg) if KEBAB.match(s)}
    assert seen == {"made-up-code", "other-made-up"}
