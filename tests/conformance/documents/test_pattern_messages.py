"""Patterns mean ECMA-262 end to end: ``pas validate`` refuses an identifier with a trailing line break."""

from __future__ import annotations

from conformance.cli.main import main

MANIFEST = """\
name: Weather
module_name: {module}
version: 1.0.0
description: Looks up the weather forecast for a city.
"""


def _validate(tmp_path, capsys, module: str) -> tuple[int, str]:
    path = tmp_path / "weather.yaml"
    path.write_text(MANIFEST.format(module=module), encoding="utf-8")
    status = main(["validate", "--no-config", "--quiet", str(path)])
    return status, capsys.readouterr().out.replace(str(path), "weather.yaml")


def test_a_module_name_with_a_trailing_newline_is_an_error_with_pointer_and_hint(tmp_path, capsys):
    status, out = _validate(tmp_path, capsys, '"weather\\n"')
    assert status == 1
    assert out == ("weather.yaml:2:14: error schema 'weather\\n' does not match the required pattern "
                   "^[A-Za-z_][A-Za-z0-9_]*$; remove the surrounding whitespace or line break [/module_name]\n")


def test_a_pattern_mismatch_that_is_not_whitespace_gets_no_hint(tmp_path, capsys):
    status, out = _validate(tmp_path, capsys, '"3rd"')
    assert status == 1 and "does not match the required pattern" in out and "whitespace" not in out


def test_the_same_name_without_the_newline_is_clean(tmp_path, capsys):
    assert _validate(tmp_path, capsys, '"weather"') == (0, "")
