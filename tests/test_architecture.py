"""The import direction of the house: each package imports only packages on lower floors.

The floors are the table on docs/architecture.md; this test reads them from there, so the page
and the rule cannot drift. Lazy imports inside functions count too: a late import that runs
back up is still an arrow back up.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"
# Third-party packages the pure reference may use (lazily, at its edges: the semantics and
# config-schema loaders); everything else it imports is the standard library or itself.
REFERENCE_THIRD_PARTY = {"yaml", "jsonschema", "referencing"}
# The scheduler core: what an implementer copies; the standard library and itself only.
CORE = ("frozen", "model", "events", "eligibility", "scheduler", "catalogue", "render", "errors", "problems",
        "disclosure_options", "disclosure_commands", "disclosure_answers", "disclosure")
# The edges of the reference that build on the core: the fast path, the Engine, the host profile.
EDGES = ("fast", "engine", "host", "host_commands", "host_config", "lifecycle")


def floors() -> dict[str, int]:
    """Package -> floor, from the table under '## Floors' on docs/architecture.md."""
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("## Floors", 1)[1].split("\n## ", 1)[0]
    found: dict[str, int] = {}
    for floor, cell in re.findall(r"^\|\s*(\d+)\s*\|([^|]+)\|", section, re.M):
        for package in re.findall(r"`([a-z_.]+)`", cell):
            found[package] = int(floor)
    return found


def package_of(module: str, known: dict[str, int]) -> str | None:
    """The floor-table package a dotted module belongs to (the longest listed prefix)."""
    parts = module.split(".")
    for size in range(len(parts), 0, -1):
        candidate = ".".join(parts[:size])
        if candidate in known:
            return candidate
    return None


def imports_of(path: Path) -> list[tuple[str, int]]:
    """Every absolute import in a file, with its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, node.lineno))
    return found


def _modules(package: str) -> list[Path]:
    return sorted(p for p in (ROOT / package).rglob("*.py") if "scenarios" not in p.parts)


def test_the_page_lists_every_package_of_the_house():
    known = floors()
    packages = {"reference_impl"} | {
        f"conformance.{p.stem if p.is_file() else p.name}" for p in (ROOT / "conformance").iterdir()
        if (p.is_dir() and (p / "__init__.py").exists()) or (p.suffix == ".py" and p.stem != "__init__")
    }
    assert packages <= set(known), f"add these to the floor table on docs/architecture.md: {sorted(packages - set(known))}"


def test_every_import_runs_down_never_up_or_sideways_between_packages():
    known = floors()
    wrong = []
    for top in ("conformance", "reference_impl"):
        for path in _modules(top):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            here = package_of(module, known)
            for name, line in imports_of(path):
                there = package_of(name, known)
                if here and there and there != here and known[there] >= known[here]:
                    wrong.append(f"{path.relative_to(ROOT)}:{line}: {here} (floor {known[here]}) imports {there} (floor {known[there]})")
    assert not wrong, "imports that do not run down:\n" + "\n".join(wrong)


def test_the_reference_imports_only_the_standard_library_and_its_loaders():
    allowed = set(sys.stdlib_module_names) | REFERENCE_THIRD_PARTY | {"reference_impl"}
    wrong = [f"{path.relative_to(ROOT)}:{line}: {name}" for path in _modules("reference_impl")
             for name, line in imports_of(path) if name.split(".")[0] not in allowed]
    assert not wrong, wrong


def test_the_scheduler_core_imports_only_the_standard_library_and_itself():
    allowed = set(sys.stdlib_module_names) | {"reference_impl"}
    wrong = [f"{path.relative_to(ROOT)}:{line}: {name}" for stem in CORE
             if (path := ROOT / "reference_impl" / f"{stem}.py").exists()
             for name, line in imports_of(path) if name.split(".")[0] not in allowed]
    assert not wrong, wrong


def test_the_scheduler_core_never_imports_an_edge():
    """The core is what an implementer reads: the fast path and the Engine build on it, never the other way."""
    edges = {f"reference_impl.{edge}" for edge in EDGES}
    wrong = [f"reference_impl/{stem}.py:{line}: {name}" for stem in CORE
             for name, line in imports_of(ROOT / "reference_impl" / f"{stem}.py") if name in edges]
    assert not wrong, wrong


def test_the_direction_check_can_fail():
    known = {"reference_impl": 0, "conformance.suite": 3, "conformance.report": 4}
    assert package_of("conformance.report.text", known) == "conformance.report"
    here, there = "conformance.suite", package_of("conformance.report.text", known)
    assert known[there] >= known[here]  # suite importing report would be reported
