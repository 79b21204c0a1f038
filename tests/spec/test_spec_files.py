"""Checks on the shipped spec data: schemas, requirements and semantics tables."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from conformance.documents.schemas import SCHEMA_BASE

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "spec"
SCHEMAS = SPEC / "schemas"

ID_PATTERN = re.compile(r"^(ACT|TXT|HOST|DISC)-[A-Z]+-\d+$")
PROFILE_OF_PREFIX = {"ACT": "activation", "TXT": "text", "HOST": "host", "DISC": "disclosure"}
# Keywords whose values are subschemas, so properties may hide below them.
_SUBSCHEMA_KEYWORDS = ("items", "additionalProperties", "propertyNames", "contains", "not", "if", "then", "else")
_SUBSCHEMA_LIST_KEYWORDS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SUBSCHEMA_MAP_KEYWORDS = ("$defs", "patternProperties", "dependentSchemas")


# libyaml's parser when PyYAML has it: the same values (SafeLoader's constructors), a tenth of the CPU;
# the tests below read ~400 schema files, 3 s with the pure-Python parser.
_TRUSTED_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _load(path: Path) -> Any:
    # Trusted files shipped in this repository; the hardened loader is for user input.
    with path.open(encoding="utf-8") as handle:
        return yaml.load(handle, Loader=_TRUSTED_LOADER)


def _schema_paths() -> list[Path]:
    return sorted(SCHEMAS.glob("**/*.schema.yaml"))


def _schema_id(path: Path) -> str:
    return path.relative_to(SCHEMAS).as_posix()


def _spec_major_minor() -> str:
    major, minor, *_ = (SPEC / "VERSION").read_text(encoding="utf-8").strip().split(".")
    return f"{major}.{minor}"


def _validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(_load(SCHEMAS / name))


def _errors(name: str, instance: Any) -> list[str]:
    return [error.message for error in _validator(name).iter_errors(instance)]


def _undocumented_properties(schema: Any, pointer: str = "") -> Iterator[str]:
    """Yield the pointer of every property schema that lacks a description."""
    if not isinstance(schema, dict):
        return
    for name, subschema in (schema.get("properties") or {}).items():
        where = f"{pointer}/properties/{name}"
        if not (isinstance(subschema, dict) and subschema.get("description")):
            yield where
        yield from _undocumented_properties(subschema, where)
    for keyword in _SUBSCHEMA_KEYWORDS:
        yield from _undocumented_properties(schema.get(keyword), f"{pointer}/{keyword}")
    for keyword in _SUBSCHEMA_LIST_KEYWORDS:
        for index, subschema in enumerate(schema.get(keyword) or ()):
            yield from _undocumented_properties(subschema, f"{pointer}/{keyword}/{index}")
    for keyword in _SUBSCHEMA_MAP_KEYWORDS:
        for name, subschema in (schema.get(keyword) or {}).items():
            yield from _undocumented_properties(subschema, f"{pointer}/{keyword}/{name}")


@pytest.fixture(scope="module")
def requirements() -> dict[str, Any]:
    return _load(SPEC / "requirements.yaml")


@pytest.fixture(scope="module")
def requirement_ids(requirements: dict[str, Any]) -> set[str]:
    return {entry["id"] for entry in requirements["requirements"]}


@pytest.fixture(scope="module")
def semantics() -> dict[str, Any]:
    return _load(SPEC / "semantics.yaml")


# ------------------------------------------------------------------ schemas


def test_the_spec_ships_the_four_core_schemas() -> None:
    names = {path.name for path in _schema_paths()}
    assert {
        "requirements.schema.yaml",
        "semantics.schema.yaml",
        "plugin-manifest.schema.yaml",
        "host-config.schema.yaml",
    } <= names


@pytest.mark.parametrize("path", _schema_paths(), ids=_schema_id)
def test_every_schema_is_a_valid_2020_12_schema(path: Path) -> None:
    schema = _load(path)
    assert schema.get("$schema") == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("path", _schema_paths(), ids=_schema_id)
def test_every_schema_id_carries_the_document_formats_version(path: Path) -> None:
    # The $id names the version of the document formats (/1.0/), which moves only when a format
    # changes incompatibly: spec 1.1 added an optional field and kept 1.0's (docs/changelog.md).
    schema_id = _load(path).get("$id", "")
    assert schema_id.startswith(SCHEMA_BASE)
    formats = SCHEMA_BASE.rstrip("/").rsplit("/", 1)[-1]
    assert tuple(map(int, formats.split("."))) <= tuple(map(int, _spec_major_minor().split(".")))


@pytest.mark.parametrize("path", _schema_paths(), ids=_schema_id)
def test_every_schema_has_a_title_and_description_at_its_root(path: Path) -> None:
    schema = _load(path)
    assert schema.get("title")
    assert schema.get("description")


@pytest.mark.parametrize("path", _schema_paths(), ids=_schema_id)
def test_every_schema_property_has_a_description_for_the_docs(path: Path) -> None:
    assert list(_undocumented_properties(_load(path))) == []


def test_schema_ids_are_unique() -> None:
    ids = Counter(_load(path).get("$id") for path in _schema_paths())
    assert [schema_id for schema_id, count in ids.items() if count > 1] == []


def test_the_description_walk_finds_an_undocumented_nested_property() -> None:
    schema = {"$defs": {"thing": {"items": {"properties": {"x": {"type": "string"}}}}}}
    assert list(_undocumented_properties(schema)) == ["/$defs/thing/items/properties/x"]


@pytest.mark.parametrize("path", _schema_paths(), ids=_schema_id)
def test_every_schema_example_validates_against_its_schema(path: Path) -> None:
    schema = _load(path)
    validator = Draft202012Validator(schema)
    for example in schema.get("examples", []):
        assert [error.message for error in validator.iter_errors(example)] == []


# ------------------------------------------------------------------ requirements


def test_requirements_file_validates_against_its_schema(requirements: dict[str, Any]) -> None:
    assert _errors("requirements.schema.yaml", requirements) == []


def test_requirement_ids_are_unique(requirements: dict[str, Any]) -> None:
    counts = Counter(entry["id"] for entry in requirements["requirements"])
    assert [requirement_id for requirement_id, count in counts.items() if count > 1] == []


def test_requirement_ids_follow_the_prefix_family_number_pattern(requirements: dict[str, Any]) -> None:
    assert [e["id"] for e in requirements["requirements"] if not ID_PATTERN.match(e["id"])] == []


def test_requirement_profile_matches_its_id_prefix(requirements: dict[str, Any]) -> None:
    mismatched = [
        entry["id"]
        for entry in requirements["requirements"]
        if PROFILE_OF_PREFIX[entry["id"].split("-", 1)[0]] != entry["profile"]
    ]
    assert mismatched == []


def test_there_are_at_least_forty_requirements(requirement_ids: set[str]) -> None:
    assert len(requirement_ids) >= 40


def test_requirement_text_states_its_level_in_capitals(requirements: dict[str, Any]) -> None:
    assert [e["id"] for e in requirements["requirements"] if e["level"] not in e["text"]] == []


def test_requirements_of_a_family_are_numbered_from_one_without_gaps(requirements: dict[str, Any]) -> None:
    families: dict[str, list[int]] = {}
    for entry in requirements["requirements"]:
        family, number = entry["id"].rsplit("-", 1)
        families.setdefault(family, []).append(int(number))
    gaps = {family: numbers for family, numbers in families.items() if sorted(numbers) != list(range(1, len(numbers) + 1))}
    assert gaps == {}


def test_requirements_schema_rejects_a_typo_in_the_level() -> None:
    document = {
        "profiles": {name: {"title": name, "description": name} for name in ("activation", "text", "host")},
        "requirements": [
            {"id": "ACT-X-1", "level": "must", "profile": "activation", "title": "t", "text": "t", "source": "s"}
        ],
    }
    assert _errors("requirements.schema.yaml", document) != []


# ------------------------------------------------------------------ semantics


def test_semantics_file_validates_against_its_schema(semantics: dict[str, Any]) -> None:
    assert _errors("semantics.schema.yaml", semantics) == []


def test_every_requirement_named_in_semantics_exists(semantics: dict[str, Any], requirement_ids: set[str]) -> None:
    named = [rule["requirement"] for rule in semantics["eligibility"]]
    for method in semantics["methods"].values():
        named += [rule["requirement"] for rule in method["outcomes"]]
    assert sorted(set(named) - requirement_ids) == []


def test_eligibility_and_outcome_tables_end_with_a_catch_all(semantics: dict[str, Any]) -> None:
    assert semantics["eligibility"][-1]["when"] == {}
    for method in semantics["methods"].values():
        assert method["outcomes"][-1]["when"] == {}


def test_semantics_constants_are_ordered_min_default_max(semantics: dict[str, Any]) -> None:
    constants = semantics["constants"]
    assert constants["min_active_rounds"] <= constants["default_active_rounds"] <= constants["max_active_rounds"]


def test_semantics_schema_rejects_an_undocumented_condition(semantics: dict[str, Any]) -> None:
    broken = {**semantics, "eligibility": [{"requirement": "ACT-ELIG-1", "when": {"mood": "sleepy"}, "sleep_eligible": False, "why": "x"}]}
    assert _errors("semantics.schema.yaml", broken) != []


def test_semantics_schema_rejects_an_unknown_strategy_condition(semantics: dict[str, Any]) -> None:
    broken = {**semantics, "eligibility": [{"requirement": "ACT-ELIG-2", "when": {"strategy": "sometimes"}, "sleep_eligible": False, "why": "x"}]}
    assert _errors("semantics.schema.yaml", broken) != []


# ------------------------------------------------------------------ manifests and host configs

MANIFEST = {
    "name": "笔记插件",
    "module_name": "note",
    "version": "1.0.0",
    "description": "管理用户笔记",
    "methods": [{"name": "add_note", "kind": "tool", "description": "Stores a note."}],
    "allow_sleep": True,
    "sleep_brief": "管理用户笔记。",
}


def test_a_small_manifest_is_valid() -> None:
    assert _errors("plugin-manifest.schema.yaml", MANIFEST) == []


def test_a_manifest_with_every_field_is_valid() -> None:
    manifest = {
        **MANIFEST,
        "$schema": "https://plugin-activation-spec.org/schemas/1.0/plugin-manifest.schema.json",
        "kind": "plugin-manifest",
        "author": "kroluna",
        "url": "https://example.org/note",
        "version": "2.4.0-rc.1+build.7",
        "dependencies": ["memory_tools"],
        "config": {"defaults": {"limit": 10}, "schema": {"type": "object"}},
        "injects_prompt": True,
        "hooks": ["before_tool_call", "my_custom_hook"],
        "builtin": False,
        "support_adapter": ["onebot_v11"],
        "allow_sleep": None,
    }
    assert _errors("plugin-manifest.schema.yaml", manifest) == []


def test_a_manifest_key_typo_is_rejected() -> None:
    assert _errors("plugin-manifest.schema.yaml", {**MANIFEST, "allow_slep": True}) != []


def test_a_manifest_vendor_extension_key_is_accepted() -> None:
    assert _errors("plugin-manifest.schema.yaml", {**MANIFEST, "x-vendor": {"anything": [1, 2]}}) == []


@pytest.mark.parametrize("module_name", ["1abc", "", "has-dash", "a" * 65, "名字"])
def test_a_bad_module_name_is_rejected(module_name: str) -> None:
    assert _errors("plugin-manifest.schema.yaml", {**MANIFEST, "module_name": module_name}) != []


@pytest.mark.parametrize("version", ["1.0", "v1.0.0", "01.0.0", "1.0.0-"])
def test_a_version_that_is_not_semver_is_accepted_by_the_schema_as_nekroagent_accepts_it(version: str) -> None:
    # SHOULD, not MUST: pas validate warns (version-not-semver, tests/conformance/validate/test_validate_author_rules.py).
    assert _errors("plugin-manifest.schema.yaml", {**MANIFEST, "version": version}) == []


def test_a_blank_version_is_rejected() -> None:
    assert _errors("plugin-manifest.schema.yaml", {**MANIFEST, "version": ""}) != []


@pytest.mark.parametrize("missing", ["name", "module_name", "version", "description"])
def test_a_manifest_without_a_required_field_is_rejected(missing: str) -> None:
    manifest = {key: value for key, value in MANIFEST.items() if key != missing}
    assert _errors("plugin-manifest.schema.yaml", manifest) != []


@pytest.mark.parametrize(
    "change",
    [
        {"allow_sleep": "yes"},
        {"sleep_brief": "x" * 2001},
        {"methods": [{"name": "m", "kind": "widget", "description": "d"}]},
        {"hooks": ["BeforeToolCall"]},
        {"kind": "host-config"},
    ],
    ids=["allow-sleep-string", "brief-too-long", "unknown-method-kind", "hook-not-snake-case", "wrong-kind"],
)
def test_a_manifest_with_a_bad_value_is_rejected(change: dict[str, Any]) -> None:
    assert _errors("plugin-manifest.schema.yaml", {**MANIFEST, **change}) != []


def test_a_full_host_config_is_valid() -> None:
    config = {
        "kind": "host-config",
        "enabled": ["weather", "note"],
        "disabled": ["github"],
        "strategies": {"weather": "allow_sleep", "dice": "forbid_sleep", "note": "auto"},
        "scheduler_enabled": False,
        "config": {"weather": {"units": "metric"}},
        "x-vendor": True,
    }
    assert _errors("host-config.schema.yaml", config) == []


def test_a_host_config_with_an_unknown_strategy_is_rejected() -> None:
    assert _errors("host-config.schema.yaml", {"strategies": {"weather": "sometimes"}}) != []


@pytest.mark.parametrize(
    "config",
    [
        {"enabled": ["note", "note"]},
        {"strategies": {"1abc": "auto"}},
        {"scheduler_enabled": "yes"},
        {"config": {"weather": "metric"}},
        {"plugins": ["note"]},
    ],
    ids=["duplicate-enabled", "bad-strategy-key", "scheduler-flag-string", "config-not-mapping", "unknown-key"],
)
def test_a_host_config_with_a_bad_value_is_rejected(config: dict[str, Any]) -> None:
    assert _errors("host-config.schema.yaml", config) != []
