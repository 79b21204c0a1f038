"""Patterns mean ECMA-262 end to end, and a mismatch is said in words with a value that would fit."""

from __future__ import annotations

import re

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
    assert out == ("weather.yaml:2:14: error schema 'weather\\n' must be an identifier (letters, digits and "
                   "underscores, not starting with a digit; no spaces or hyphens); remove the surrounding "
                   "whitespace or line break [/module_name]\n")


def test_a_pattern_mismatch_that_is_not_whitespace_suggests_a_value_that_fits(tmp_path, capsys):
    status, out = _validate(tmp_path, capsys, '"3rd"')
    assert status == 1 and "'3rd' must be an identifier" in out and "whitespace" not in out
    assert "; try '_3rd'" in out and "^[" not in out  # words, not the regular expression


def test_an_author_with_a_space_is_told_what_an_identifier_is_and_given_one(tmp_path, capsys):
    path = tmp_path / "weather.yaml"
    path.write_text(MANIFEST.format(module="weather") + "author: Jane Doe\n", encoding="utf-8")
    assert main(["validate", "--no-config", "--quiet", str(path)]) == 1
    assert capsys.readouterr().out == (
        f"{path}:5:9: error schema 'Jane Doe' must be an identifier (letters, digits and underscores, not "
        "starting with a digit; no spaces or hyphens); try 'Jane_Doe' [/author]\n")


def test_a_value_with_no_latin_word_in_it_gets_the_words_but_no_suggestion(tmp_path, capsys):
    status, out = _validate(tmp_path, capsys, "天气")
    assert status == 1 and "must be an identifier" in out and "try" not in out


def test_every_pattern_of_the_bundled_schemas_has_words():
    from conformance.documents.pattern_words import PATTERN_WORDS
    from reference_impl.spec_files import spec_dir

    used = set()
    for path in (spec_dir() / "schemas").rglob("*.schema.yaml"):
        used |= set(re.findall(r'pattern: "([^"]+)"', path.read_text(encoding="utf-8")))
    assert used and used - set(PATTERN_WORDS) == set()


def test_the_same_name_without_the_newline_is_clean(tmp_path, capsys):
    assert _validate(tmp_path, capsys, '"weather"') == (0, "")
