"""The manifest file-name convention: ``pas-plugin.yaml`` / ``NAME.pas-plugin.yaml`` (and ``pas-host``) name the kind."""

from __future__ import annotations

import pytest

from conformance.cli.main import main
from conformance.documents.kinds import Kind, filename_kind
from conformance.documents.sets import load_set


@pytest.mark.parametrize(("name", "kind"), [
    ("pas-plugin.yaml", Kind.MANIFEST), ("weather.pas-plugin.yml", Kind.MANIFEST), ("W.PAS-PLUGIN.JSON", Kind.MANIFEST),
    ("plugins/draw/pas-plugin.json", Kind.MANIFEST), ("pas-host.yaml", Kind.HOST_CONFIG),
    ("prod.pas-host.yml", Kind.HOST_CONFIG), (".pas.yaml", None), ("weather.yaml", None), ("xpas-plugin.yaml", None),
    ("pas-plugin.yaml.bak", None), ("weather.pas-plugin.toml", None),
])
def test_the_file_name_gives_the_kind(name, kind):
    assert filename_kind(name) is kind


def _write(folder, name: str, text: str):
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_manifest_named_by_the_convention_is_checked_even_without_module_name(tmp_path, capsys):
    _write(tmp_path, "weather.pas-plugin.yaml", "name: Weather\nversion: 1.0.0\ndescription: d\n")
    _write(tmp_path, "notes.yaml", "name: Notes\nversion: 1.0.0\ndescription: d\n")  # no marker: not a PAS file
    assert main(["validate", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "weather.pas-plugin.yaml:1:1: error schema 'module_name' is required" in out
    assert "notes.yaml" not in out and "1 document checked, 1 skipped" in out


def test_an_empty_host_config_named_by_the_convention_is_a_host_config(tmp_path):
    _write(tmp_path, "pas-host.yaml", "config: {}\n")
    (file,) = load_set([str(tmp_path)]).files
    assert file.documents[0].kind is Kind.HOST_CONFIG and file.documents[0].problems == ()


def test_a_modeline_or_a_declared_kind_beats_the_file_name(tmp_path):
    modeline = "# yaml-language-server: $schema=https://plugin-activation-spec.org/schemas/1.0/host-config.schema.json\n"
    _write(tmp_path, "a.pas-plugin.yaml", modeline + "enabled: []\n")
    _write(tmp_path, "b.pas-plugin.yaml", "kind: host-config\nenabled: []\n")
    kinds = {f.path.rsplit("/", 1)[-1]: f.documents[0].kind for f in load_set([str(tmp_path)]).files}
    assert kinds == {"a.pas-plugin.yaml": Kind.HOST_CONFIG, "b.pas-plugin.yaml": Kind.HOST_CONFIG}
