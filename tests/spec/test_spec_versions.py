"""Spec versions stay put: every requirement and scenario names the version that introduced it, each
version's set (ids and the hash of each one's meaning) is frozen in spec/releases/<V>.yaml, and
``pas run --spec-version V`` runs exactly that set and says so in every report."""

from __future__ import annotations

import copy
import json
import shlex
import sys
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from conformance.cli.main import main
from conformance.documents.loader import YamlDocument
from conformance.suite import spec_versions
from conformance.suite.requirements import load_requirements
from conformance.suite.scenario import load_suite, plugin_documents
from conformance.suite.spec_versions import (
    Release,
    current_version,
    differences,
    known_versions,
    load_release,
    requirement_hash,
    scenario_hash,
    tree_documents,
    tree_release,
)

ROOT = Path(__file__).resolve().parents[2]
REQUIREMENT = {"id": "ACT-X-1", "level": "MUST", "profile": "activation", "introduced_in": "1.0", "title": "T",
               "text": "An implementation MUST  do\nit.", "source": "s"}
SCENARIO = {"id": "s", "title": "T", "description": "D", "source": "S", "introduced_in": "1.0", "covers": ["ACT-ELIG-1"],
            "plugins": [{"fixture": "dice"}], "steps": [{"run": None, "note": "n", "expect": {"dice": {"state": "always_awake"}}}]}


def _doc(value: dict) -> YamlDocument:
    return YamlDocument(value=value, path="s.yaml")


def test_every_requirement_and_scenario_names_a_known_version():
    requirements, scenarios = tree_documents()
    unnamed = [e["id"] for e in requirements if "introduced_in" not in e]
    unnamed += [d.value["id"] for d in scenarios if "introduced_in" not in d.value]
    assert unnamed == []
    unknown = {e["id"]: e["introduced_in"] for e in [*requirements, *(d.value for d in scenarios)]
               if e["introduced_in"] not in known_versions()}
    assert unknown == {}


def test_the_requirements_schema_refuses_a_requirement_without_its_version():
    schema = yaml.safe_load((ROOT / "spec/schemas/requirements.schema.yaml").read_text(encoding="utf-8"))
    doc = yaml.safe_load((ROOT / "spec/requirements.yaml").read_text(encoding="utf-8"))
    del doc["requirements"][0]["introduced_in"]
    errors = list(Draft202012Validator(schema).iter_errors(doc))
    assert [e.message for e in errors] == ["'introduced_in' is a required property"]


@pytest.mark.parametrize("version", known_versions())
def test_each_versions_set_in_the_tree_is_its_release_file(version):
    # A failure here: a released version's set changed (never do that: add a new id instead), or
    # the current version's file is stale: python -m conformance.suite.spec_versions rewrites it.
    assert differences(load_release(version), tree_release(version)) == []


def test_the_current_version_is_the_newest_release_and_1_0_holds_what_this_round_began_with():
    assert current_version() == "1.1" == known_versions()[-1]
    assert known_versions() == ("1.0", "1.1")
    frozen = load_release("1.0")
    assert (len(frozen.requirements), len(frozen.scenarios)) == (93, 228)
    assert "cache-admin-many-strategy-changes-each-seen-at-the-next-run" in frozen.scenarios
    assert not any(r.startswith("DISC-") for r in frozen.requirements)


def test_differences_name_each_added_removed_and_changed_id():
    frozen = Release(version="1.0", requirements={"A": "1", "B": "2"}, scenarios={"s": "3"})
    tree = Release(version="1.0", requirements={"A": "1", "C": "4"}, scenarios={"s": "5"})
    assert differences(frozen, tree) == [
        "spec 1.0: requirement C is not in the release file (added)",
        "spec 1.0: requirement B of the release file is gone (removed)",
        "spec 1.0: scenario s changed its meaning (hash 3 -> 5)",
    ]


def test_a_requirements_hash_follows_its_meaning_not_its_wording():
    same = {**REQUIREMENT, "title": "Another title", "source": "elsewhere", "rationale": "why",
            "text": "An implementation MUST do it."}
    assert requirement_hash(same) == requirement_hash(REQUIREMENT)
    for key, value in (("level", "SHOULD"), ("profile", "text"), ("text", "An implementation MUST NOT do it."),
                       ("declined_by", {"state_scope": ["instance"]})):
        assert requirement_hash({**REQUIREMENT, key: value}) != requirement_hash(REQUIREMENT), key


def test_a_scenarios_hash_follows_what_it_sends_and_expects_not_its_words():
    reworded = {**copy.deepcopy(SCENARIO), "title": "U", "description": "E", "source": "elsewhere", "introduced_in": "1.1"}
    reworded["steps"][0]["note"] = "another note"
    assert scenario_hash(_doc(reworded)) == scenario_hash(_doc(SCENARIO))
    changed = copy.deepcopy(SCENARIO)
    changed["steps"][0]["expect"]["dice"]["state"] = "sleeping"
    other_fixture = {**copy.deepcopy(SCENARIO), "plugins": [{"fixture": "dice", "with": {"allow_sleep": False}}]}
    more_covers = {**copy.deepcopy(SCENARIO), "covers": ["ACT-ELIG-1", "ACT-ELIG-2"]}
    hashes = {scenario_hash(_doc(v)) for v in (SCENARIO, changed, other_fixture, more_covers)}
    assert len(hashes) == 4


def test_a_fixture_change_changes_the_hash_of_the_scenarios_using_it(tmp_path):
    hashes = []
    for description in ("d", "e"):
        fixtures = tmp_path / f"fixtures-{description}.yaml"
        fixtures.write_text(f"dice: {{name: Dice, module_name: dice, version: 1.0.0, description: {description}}}\n",
                            encoding="utf-8")
        hashes.append(spec_versions.digest(plugin_documents(_doc(SCENARIO), fixtures)))
    assert hashes[0] != hashes[1]


def test_the_command_writes_the_current_versions_file_only(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(spec_versions, "releases_dir", lambda: tmp_path)
    assert spec_versions.main() == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["1.1.yaml"]
    assert (tmp_path / "1.1.yaml").read_text(encoding="utf-8") == (ROOT / "spec/releases/1.1.yaml").read_text(encoding="utf-8")
    frozen = yaml.safe_load((ROOT / "spec/releases/1.1.yaml").read_text(encoding="utf-8"))
    counts = f"{len(frozen['requirements'])} requirements, {len(frozen['scenarios'])} scenarios"
    assert f"spec 1.1, {counts}" in capsys.readouterr().out


def test_the_loaders_carry_the_version():
    requirements, _ = load_requirements()
    assert requirements["ACT-ELIG-1"].introduced_in == "1.0" and requirements["DISC-CAT-1"].introduced_in == "1.1"
    scenarios, _ = load_suite()
    versions = {s.id: s.introduced_in for s in scenarios}
    assert versions["admin-auto-is-no-strategy"] == "1.0" and versions["disc-hidden-tool-call-refused"] == "1.1"


def _json_run(capsys, *args: str) -> tuple[int, list[dict]]:
    code = main(["run", "-q", "-f", "json", *args])
    return code, [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.mark.parametrize("impl", ["reference", "python:reference_impl.engine:create",
                                  f"cmd:{sys.executable} -m conformance serve-reference"])
def test_spec_version_1_0_runs_exactly_its_scenarios_and_judges_only_its_requirements(capsys, impl):
    code, lines = _json_run(capsys, "--spec-version", "1.0", "--impl", impl)
    *results, summary = lines
    frozen = load_release("1.0")
    assert code == 0 and summary["spec_version"] == "1.0"
    ran = {r["id"] for r in results if r["outcome"] != "skipped"}
    assert {r["id"] for r in results} == set(frozen.scenarios)
    assert ran <= set(frozen.scenarios) and all(r["outcome"] in ("passed", "skipped") for r in results)
    assert set(summary["requirements"]) <= set(frozen.requirements)


@pytest.mark.parametrize(("chosen", "named"), [(["--spec-version", "1.0"], "1.0.0"), ([], (ROOT / "spec" / "VERSION").read_text().strip())])
def test_the_hello_names_the_spec_version_whose_set_is_run(capsys, tmp_path, chosen, named):
    sent = tmp_path / "requests.jsonl"
    server = f"tee {shlex.quote(str(sent))} | {shlex.quote(sys.executable)} -m conformance serve-reference"
    code, _ = _json_run(capsys, *chosen, "-k", "admin-auto", "--impl", f"cmd:sh -c {shlex.quote(server)}")
    hello = json.loads(sent.read_text(encoding="utf-8").splitlines()[0])
    assert code == 0 and hello["cmd"] == "hello" and hello["spec_version"] == named


def test_the_default_is_the_newest_version(capsys):
    code, lines = _json_run(capsys)
    assert code == 0 and lines[-1]["spec_version"] == "1.1" and len(lines) - 1 == len(load_release("1.1").scenarios)
    assert "DISC-CAT-1" in lines[-1]["requirements"]


def test_an_unknown_version_is_a_usage_error_naming_the_known_ones(capsys):
    assert main(["run", "--spec-version", "0.9"]) == 2
    assert capsys.readouterr().err == "pas run: unknown spec version '0.9'; known versions: 1.0, 1.1\n"


def test_a_scenario_of_your_own_without_a_version_runs_under_every_version(capsys, tmp_path):
    own = {k: v for k, v in SCENARIO.items() if k != "introduced_in"}
    (tmp_path / "own.yaml").write_text(yaml.safe_dump(own), encoding="utf-8")
    later = {**SCENARIO, "id": "later", "introduced_in": "1.1"}
    (tmp_path / "later.yaml").write_text(yaml.safe_dump(later), encoding="utf-8")
    code, lines = _json_run(capsys, "--spec-version", "1.0", "--scenario", str(tmp_path))
    assert code == 0 and [r["id"] for r in lines[:-1]] == ["s"]


@pytest.mark.parametrize(("fmt", "said"), [
    ("text", "pas run: pas-reference"), ("markdown", "Spec 1.0. Profiles:"),
    ("junit", '<property name="spec_version" value="1.0" />'), ("ctrf", '"spec_version": "1.0"'),
    ("badge", '"label": "PAS 1.0"'),
])
def test_every_report_says_which_version_was_run(capsys, fmt, said):
    assert main(["run", "-q", "--spec-version", "1.0", "-k", "admin-auto", "-f", fmt]) == 0
    out = capsys.readouterr().out
    assert said in out
    if fmt == "text":
        assert out.splitlines()[0].endswith("; spec 1.0; profiles activation, text, host, disclosure")


def test_the_badge_of_a_results_file_names_its_version(capsys, tmp_path):
    results = tmp_path / "r.jsonl"
    assert main(["run", "-q", "--spec-version", "1.0", "-k", "admin-auto", "-f", "json", "-o", str(results)]) == 0
    assert main(["report", "badge", str(results)]) == 0
    assert json.loads(capsys.readouterr().out)["label"] == "PAS 1.0"
