"""Did-you-mean hints are read from the jsonschema error's fields, never parsed back out of a message."""

from __future__ import annotations

from conformance.documents.loader import YamlDocument
from conformance.documents.suggest import check_with_hints

MANIFEST = {"kind": "plugin-manifest", "name": "Weather", "module_name": "weather", "version": "1.0.0",
            "description": "Weather lookups.", "author": "pas"}


def _messages(schema: str, value: dict) -> list[str]:
    return [p.message for p in check_with_hints(schema, YamlDocument(value=value, path=f"{schema}.yaml"))]


def test_a_strategy_with_a_quote_in_it_still_gets_its_hint():
    # The message quotes it as "allow_sleep'" (repr), which the old pattern for 'value' could not read.
    [message] = _messages("host-config", {"kind": "host-config", "strategies": {"weather": "allow_sleep'"}})
    assert message.endswith("did you mean 'allow_sleep'?")


def test_an_unknown_key_is_compared_with_the_keys_of_its_own_object_first():
    # Top level: 'schema' is a key of config, but here the close key is '$schema'.
    [message] = _messages("plugin-manifest", {**MANIFEST, "schema": "x"})
    assert message.startswith("unknown field(s) 'schema'") and message.endswith("did you mean '$schema'?")


def test_a_misspelt_method_key_and_a_far_off_value_get_a_hint_and_none():
    method = {"kind": "tool", "name": "today", "description": "Today.", "lable": "Today"}
    [message] = _messages("plugin-manifest", {**MANIFEST, "methods": [method]})
    assert message.endswith("did you mean 'label'?")
    [message] = _messages("host-config", {"kind": "host-config", "strategies": {"weather": "never"}})
    assert "did you mean" not in message
