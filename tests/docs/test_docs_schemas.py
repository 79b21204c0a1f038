"""The schemas served by the site: every bundled schema at the URL of its ``$id``, as ``pas schema`` prints it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
import yaml

from conformance.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "spec" / "schemas"
YAML_FILES = sorted(SCHEMAS.rglob("*.schema.yaml"))


def _name(path: Path) -> str:
    return path.relative_to(SCHEMAS).as_posix().removesuffix(".schema.yaml")


def _hook():
    spec = importlib.util.spec_from_file_location("pas_schemas_hook", ROOT / "docs" / "hooks" / "schemas.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bundled_schemas_include_the_protocol_messages():
    names = {_name(p) for p in YAML_FILES}
    assert {"plugin-manifest", "host-config", "protocol/run-request", "protocol/common"} <= names


def test_every_schema_is_published_in_the_built_site_at_the_path_of_its_id(built_site):
    from support.docs_config import mkdocs_config

    site_url = mkdocs_config()["site_url"]
    for path in YAML_FILES:
        contents = yaml.safe_load(path.read_text(encoding="utf-8"))
        relative = contents["$id"].removeprefix(site_url)
        assert relative.startswith("schemas/1.0/"), contents["$id"]
        served = built_site / relative
        assert served.is_file(), f"{_name(path)}: not published at {relative}"
        assert json.loads(served.read_text(encoding="utf-8")) == contents, _name(path)
    published = sorted(p.relative_to(built_site).as_posix() for p in built_site.rglob("*.schema.json"))
    assert len(published) == len(YAML_FILES), "a schema is published twice (in zh/ too?) or a stray one is left"


def test_the_published_json_is_what_pas_schema_prints(capsys):
    files = _hook().published_schemas(SCHEMAS, "https://plugin-activation-spec.org/")
    assert len(files) == len(YAML_FILES)
    for path in YAML_FILES:
        name = _name(path)
        assert main(["schema", name]) == 0
        printed = capsys.readouterr().out
        assert printed == files[f"schemas/1.0/{name}.schema.json"], name


def test_a_schema_whose_id_is_not_under_the_site_breaks_the_build(tmp_path):
    (tmp_path / "x.schema.yaml").write_text("$id: https://example.org/x.schema.json\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not under site_url"):
        _hook().published_schemas(tmp_path, "https://plugin-activation-spec.org/")


def test_pas_schema_list_names_every_bundled_schema_protocol_ones_included(capsys):
    assert main(["schema", "--list"]) == 0
    assert capsys.readouterr().out.splitlines() == sorted(_name(p) for p in YAML_FILES)


def test_pas_schema_prints_a_protocol_message_schema_and_its_id(capsys):
    assert main(["schema", "protocol/run-request"]) == 0
    assert json.loads(capsys.readouterr().out)["title"] == "PAS stdio protocol run request"
    assert main(["schema", "protocol/run-request", "--id"]) == 0
    assert capsys.readouterr().out.strip().endswith("/schemas/1.0/protocol/run-request.schema.json")


def test_pas_schema_without_a_name_lists_the_names_on_stderr_and_fails(capsys):
    assert main(["schema"]) == 2
    assert "protocol/run-request" in capsys.readouterr().err


def test_the_schema_catalog_is_published_and_matches_the_file_names_pas_recognises(built_site):
    from conformance.documents.kinds import Kind, catalog_patterns, filename_kind

    catalog = json.loads((SCHEMAS / "catalog.json").read_text(encoding="utf-8"))
    assert json.loads((built_site / "schemas" / "catalog.json").read_text(encoding="utf-8")) == catalog
    by_url = {entry["url"]: entry for entry in catalog["schemas"]}
    for kind in (Kind.MANIFEST, Kind.HOST_CONFIG):
        entry = by_url[f"https://plugin-activation-spec.org/schemas/1.0/{kind.value}.schema.json"]
        assert set(entry) >= {"name", "description", "fileMatch", "url"}  # SchemaStore's required fields
        assert entry["fileMatch"] == catalog_patterns(kind)
        for pattern in entry["fileMatch"]:
            assert filename_kind("plugins/weather/" + pattern.replace("*", "weather")) is kind


def test_a_catalog_entry_naming_an_unpublished_schema_breaks_the_build(tmp_path):
    (tmp_path / "catalog.json").write_text(json.dumps({"schemas": [
        {"name": "x", "url": "https://plugin-activation-spec.org/schemas/1.0/nope.schema.json"}]}), encoding="utf-8")
    with pytest.raises(ValueError, match="not a published schema"):
        _hook().published_catalog(tmp_path, {}, "https://plugin-activation-spec.org/")
