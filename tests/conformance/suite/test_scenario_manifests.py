"""A scenario's plugins: each fixture built once per ``with``, copies from their first, the same values as before."""

from __future__ import annotations

from pathlib import Path

from conformance.documents.loader import load_mapping
from conformance.suite.scenario import load_scenario, plugin_documents, scenario_files
from reference_impl.model import Manifest

SCENARIO = """\
id: manifests-{name}
title: Plugins from fixtures
covers: [ACT-STATE-3]
plugins:
{plugins}
steps:
  - run: null
    expect: {{}}
"""


def _write(tmp_path: Path, name: str, plugins: str) -> Path:
    path = tmp_path / f"manifests-{name}.yaml"
    path.write_text(SCENARIO.format(name=name, plugins=plugins), encoding="utf-8")
    return path


def _plugins(path: Path) -> tuple[Manifest, ...]:
    scenario, problems = load_scenario(path)
    assert scenario is not None, problems
    return scenario.plugins


def test_every_bundled_scenario_installs_the_manifests_its_documents_describe() -> None:
    for path in scenario_files():
        doc, _ = load_mapping(path)
        assert doc is not None
        expected = tuple(Manifest.from_json(manifest) for manifest in plugin_documents(doc))
        assert _plugins(path) == expected, path


def test_a_fixture_is_built_again_for_each_with(tmp_path: Path) -> None:
    plain = _plugins(_write(tmp_path, "plain", "  - fixture: weather"))
    renamed = _plugins(_write(tmp_path, "renamed", "  - fixture: weather\n    with: {name: Renamed}"))
    reordered = _plugins(_write(tmp_path, "reordered", "  - fixture: weather\n    with: {version: '9', name: Renamed}"))
    again = _plugins(_write(tmp_path, "again", "  - fixture: weather\n    with: {name: Renamed, version: '9'}"))
    typed = _plugins(_write(tmp_path, "typed", "  - fixture: weather\n    with: {allow_sleep: false}"))
    assert (plain[0].name, renamed[0].name, reordered[0].version, again[0].version) == ("Weather", "Renamed", "9", "9")
    assert reordered == again and plain[0].allow_sleep is True and typed[0].allow_sleep is False
    assert _plugins(_write(tmp_path, "plain-again", "  - fixture: weather")) == plain


def test_copies_differ_from_their_first_only_in_their_names(tmp_path: Path) -> None:
    copies = _plugins(_write(tmp_path, "copies", "  - fixture: weather\n    with: {version: '3'}\n    copies: 12"))
    assert [m.module_name for m in copies[:2]] + [copies[-1].module_name] == ["weather_01", "weather_02", "weather_12"]
    assert [m.name for m in copies[:2]] == ["Weather 1", "Weather 2"]
    doc, _ = load_mapping(tmp_path / "manifests-copies.yaml")
    assert doc is not None
    assert copies == tuple(Manifest.from_json(manifest) for manifest in plugin_documents(doc))
    assert {m.version for m in copies} == {"3"}
