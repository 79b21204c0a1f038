"""The rules for what a plugin author meant but did not write: opting in to sleep, semver, method text."""

from __future__ import annotations

import pytest
from support.validate_helpers import BRIEF, MANIFEST, found, manifest, write

from conformance.validate.lint.authoring import suggest_version


def _messages(tmp_path, text: str) -> list[tuple[str, int, str]]:
    from conformance.validate.check import check_paths

    outcome = check_paths([write(tmp_path, "m.yaml", text)])
    return [(p.code, p.source.line, p.message) for p in outcome.problems]


def test_a_brief_with_allow_sleep_null_is_the_same_as_leaving_it_out(tmp_path):
    text = manifest(extra=f"allow_sleep: null\nsleep_brief: {BRIEF}\n")
    ((code, line, message),) = _messages(tmp_path, text)
    assert (code, line) == ("brief-without-allow-sleep", 6) and "add 'allow_sleep: true'" in message


def test_a_protected_plugin_with_a_brief_is_protected_brief_not_this_rule(tmp_path):
    assert found([write(tmp_path, "m.yaml", manifest(extra=f"allow_sleep: false\nsleep_brief: {BRIEF}\n"))]) == [
        ("protected-brief", "m.yaml", 6)]


@pytest.mark.parametrize(("version", "fix"), [
    ("'1.0'", "write '1.0.0'"), ("v1.2.0", "write '1.2.0'"), ("'7'", "write '7.0.0'"),
    ("2024-05", "e.g. '1.0.0'"), ("01.0.0", "write '1.0.0'"), ("1.0.0-", "e.g. '1.0.0'"),
])
def test_a_version_that_is_not_semver_is_a_warning_with_the_fix_and_the_rest_is_still_checked(tmp_path, version, fix):
    text = MANIFEST.replace("version: 1.0.0", f"version: {version}") + "colour: blue\nmethods:\n  - {name: a, kind: tool, description: ''}\n"
    problems = _messages(tmp_path, text)
    assert sorted((c, line) for c, line, _ in problems) == [("method-without-description", 7), ("schema", 5),
                                                           ("version-not-semver", 3)]
    (message,) = [m for c, _, m in problems if c == "version-not-semver"]
    assert fix in message and "pattern" not in message


@pytest.mark.parametrize("version", ["1.0.0", "2.4.0-rc.1", "0.3.1+build.7", "10.20.30"])
def test_semver_versions_are_silent(tmp_path, version):
    assert found([write(tmp_path, "m.yaml", MANIFEST.replace("1.0.0", version))]) == []


def test_a_blank_version_is_still_a_schema_error(tmp_path):
    assert [c for c, _, _ in _messages(tmp_path, MANIFEST.replace("version: 1.0.0", "version: ''"))] == ["schema"]


def test_the_version_warning_is_suppressible_on_its_line(tmp_path):
    text = MANIFEST.replace("version: 1.0.0", "version: '1.0'  # pas: disable=version-not-semver")
    assert found([write(tmp_path, "m.yaml", text)]) == []


def test_suggest_version_pads_short_versions_and_drops_a_leading_v():
    assert [suggest_version(v) for v in ("1", "V2.1", "3.4.5")] == ["write '1.0.0'", "write '2.1.0'", "write '3.4.5'"]


def test_the_controller_with_a_brief_is_not_told_to_opt_in_to_sleep(tmp_path):
    # plugin_activation never sleeps (ACT-ELIG-8): "add allow_sleep: true" would earn controller-sleepable.
    from conformance.validate.check import check_paths

    manifest = tmp_path / "plugin_activation.yaml"
    manifest.write_text("name: Plugin activation\nmodule_name: plugin_activation\nversion: 1.0.0\n"
                        "description: The scheduler.\nsleep_brief: Turns plugins on and off.\n", encoding="utf-8")
    codes = {p.code for p in check_paths([str(manifest)]).problems}
    assert "brief-without-allow-sleep" not in codes
