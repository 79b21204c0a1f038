"""``pas schema NAME`` prints the bundled schema, unchanged, as JSON or YAML."""

from __future__ import annotations

import json

import pytest
import yaml

from conformance.cli.main import main
from conformance.documents.schemas import schema

NAMES = {"manifest": "plugin-manifest", "host-config": "host-config", "scenario": "scenario"}


@pytest.mark.parametrize("name", sorted(NAMES))
def test_schema_prints_valid_json_equal_to_the_bundled_schema(capsys, name):
    assert main(["schema", name]) == 0
    assert json.loads(capsys.readouterr().out) == schema(NAMES[name])


@pytest.mark.parametrize("name", sorted(NAMES))
def test_schema_in_yaml_loads_back_to_the_same_schema(capsys, name):
    assert main(["schema", name, "--format", "yaml"]) == 0
    assert yaml.safe_load(capsys.readouterr().out) == schema(NAMES[name])


def test_schema_id_prints_the_url_for_the_editor_modeline(capsys):
    assert main(["schema", "manifest", "--id"]) == 0
    assert capsys.readouterr().out == "https://plugin-activation-spec.org/schemas/1.0/plugin-manifest.schema.json\n"


def test_an_unknown_schema_name_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["schema", "requirements-but-wrong"])
    assert exit_info.value.code == 2


def test_schema_help_documents_the_yaml_language_server_modeline(capsys):
    with pytest.raises(SystemExit):
        main(["schema", "--help"])
    assert "# yaml-language-server: $schema=" in capsys.readouterr().out
