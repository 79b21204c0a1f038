"""The one kind detector (conformance.documents.kinds) and the one set loader (conformance.documents.sets)."""

from __future__ import annotations

import pytest

from conformance.cli.exit_status import problems_exit_code as exit_code_of
from conformance.documents.exit_codes import ExitCode
from conformance.documents.kinds import Kind, detect_kind, host_config_keys, modeline_kind, shape_keys
from conformance.documents.plugin_set import load_plugin_set
from conformance.documents.schemas import schema
from conformance.documents.sets import load_set, load_text
from conformance.documents.walk import Target
from reference_impl.problems import Problem, Severity

MANIFEST = "name: Alpha\nmodule_name: alpha\nversion: 1.0.0\ndescription: The alpha plugin.\n"
MODELINE = "# yaml-language-server: $schema=https://plugin-activation-spec.org/schemas/1.0/{}.schema.json\n"


def test_the_host_config_keys_are_read_from_the_schemas():
    assert host_config_keys() == {"enabled", "disabled", "strategies", "scheduler_enabled"}


@pytest.mark.parametrize("kind", [Kind.MANIFEST, Kind.SCENARIO])
def test_each_shape_marker_is_required_by_its_kind_and_declared_by_no_other(kind):
    others = [other for other in Kind if other is not kind]
    assert shape_keys(kind) <= set(schema(kind.value)["required"])
    for other in others:
        assert shape_keys(kind).isdisjoint(schema(other.value)["properties"]), other


@pytest.mark.parametrize(("value", "modeline", "kind"), [
    ({"kind": "host-config", "module_name": "x"}, None, Kind.HOST_CONFIG),  # what it says beats its shape
    ({"$schema": "../spec/schemas/host-config.schema.yaml", "module_name": "x"}, None, Kind.HOST_CONFIG),
    ({"module_name": "x"}, Kind.HOST_CONFIG, Kind.HOST_CONFIG),  # the file's modeline beats the shape
    ({"module_name": "x", "enabled": []}, None, Kind.MANIFEST),
    ({"strategies": {}}, None, Kind.HOST_CONFIG),
    ({"scheduler_enabled": False}, None, Kind.HOST_CONFIG),
    ({"id": "X-1", "covers": [], "steps": []}, None, Kind.SCENARIO),
    ({"config": {}}, None, None),  # a key both a manifest and a host config may have says nothing
    ({"name": "ci", "version": "3"}, None, None),  # a compose file or a workflow is not a manifest
    ({"kind": "Deployment"}, None, None),
])
def test_the_kind_is_what_the_document_says_then_its_modeline_then_its_shape(value, modeline, kind):
    assert detect_kind(value, modeline) is kind


def test_the_modeline_names_a_kind_only_for_a_bundled_schema():
    assert modeline_kind(MODELINE.format("host-config") + "enabled: []\n") is Kind.HOST_CONFIG
    assert modeline_kind("# yaml-language-server: $schema=https://example.org/other.json\n") is None


def test_a_set_is_loaded_once_with_each_document_by_kind_and_every_problem_located(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.yaml").write_text(MANIFEST)
    (tmp_path / "sub" / "host.yaml").write_text("enabled: [alpha]\nstrategies:\n  alpha: sometimes\n")
    (tmp_path / "notes.yaml").write_text("title: not a PAS document\n")
    loaded = load_set([tmp_path])
    kinds = {file.path.removeprefix(str(tmp_path)): [d.kind for d in file.documents] for file in loaded.files}
    assert kinds == {"/a.yaml": [Kind.MANIFEST], "/notes.yaml": [None], "/sub/host.yaml": [Kind.HOST_CONFIG]}
    (problem,) = loaded.problems
    assert (problem.code, problem.pointer, problem.source.line, problem.source.column) == ("schema", "/strategies/alpha", 3, 10)
    assert [doc.value["module_name"] for _, doc in loaded.of_kind(Kind.MANIFEST)] == ["alpha"]
    assert loaded.of_kind(Kind.HOST_CONFIG) == []  # it has an error


def test_a_file_named_by_the_user_that_is_no_pas_document_is_noted_one_found_in_a_folder_is_not(tmp_path):
    (tmp_path / "notes.yaml").write_text("title: not a PAS document\n")
    assert load_set([tmp_path]).problems == ()
    (problem,) = load_set([tmp_path / "notes.yaml"]).problems
    assert (problem.code, problem.severity) == ("unrecognized-document", Severity.INFO)


def test_a_manifest_where_a_host_config_is_expected_is_the_wrong_kind_and_an_empty_one_is_read_as_expected():
    expected = Target(path="h.yaml", expect=Kind.HOST_CONFIG)
    (wrong,) = load_text("kind: plugin-manifest\n" + MANIFEST, expected).all_problems()
    assert (wrong.code, wrong.pointer, wrong.source.line) == ("wrong-kind", "/kind", 1)
    loaded = load_text("config: {}\n", expected)
    assert [d.kind for d in loaded.documents] == [Kind.HOST_CONFIG] and loaded.all_problems() == []


def test_a_host_config_named_inside_the_plugin_folder_is_read_once(tmp_path):
    (tmp_path / "a.yaml").write_text(MANIFEST)
    (tmp_path / "host.yaml").write_text("enabled: [alpha, alpha]\n")  # invalid: reported once, not twice
    loaded = load_plugin_set(tmp_path, tmp_path / "host.yaml")
    assert [p.code for p in loaded.problems] == ["schema"] and loaded.host is None
    assert [m.module_name for m in loaded.manifests] == ["alpha"]


def test_a_host_config_file_with_two_documents_is_refused(tmp_path):
    (tmp_path / "a.yaml").write_text(MANIFEST)
    (tmp_path / "h.yaml").write_text("enabled: [alpha]\n---\nenabled: []\n")
    loaded = load_plugin_set(tmp_path / "a.yaml", tmp_path / "h.yaml")
    assert [(p.code, p.source.line) for p in loaded.problems] == [("multiple-documents", 2)] and loaded.host is None


def _problem(code: str, severity: Severity = Severity.ERROR) -> Problem:
    return Problem(code=code, message="m", severity=severity)


def test_the_exit_status_of_loading_problems():
    assert exit_code_of([]) is ExitCode.OK
    assert exit_code_of([_problem("symlink-cycle", Severity.WARNING)]) is ExitCode.OK
    assert exit_code_of([_problem("schema"), _problem("yaml-syntax")]) is ExitCode.FAILED
    for code in ("path-not-found", "unreadable", "special-file", "no-manifests"):
        assert exit_code_of([_problem("schema"), _problem(code)]) is ExitCode.USAGE


def test_a_scenario_named_by_the_user_is_noted_as_a_scenario(tmp_path):
    (tmp_path / "s.yaml").write_text("id: X-1\ntitle: t\ncovers: [ACT-1]\nsteps: []\n")
    (problem,) = load_set([tmp_path / "s.yaml"]).problems
    assert problem.code == "unrecognized-document" and problem.message.startswith("a scenario (pas run --scenario")


def test_the_plugins_may_be_one_manifest_file(tmp_path):
    (tmp_path / "a.yaml").write_text(MANIFEST)
    loaded = load_plugin_set(tmp_path / "a.yaml")
    assert loaded.problems == () and [m.module_name for m in loaded.manifests] == ["alpha"]
