"""The loader tools a declaration names (DISC-CAT-3) and the defaults of a declaration, pinned here.

The runner's DISC-CAT-3 check and its reading of an option left out of ``hello`` use these same
``Options``, so a scenario cannot catch a wrong answer here: the reference and the expectation
would change together. The values below are the requirement's and the protocol schema's
(spec/schemas/protocol/common.schema.yaml, ``disclosure_options``).
"""

from __future__ import annotations

import pytest

from reference_impl.disclosure_options import Discovery, Options, UnloadBy


@pytest.mark.parametrize(("discovery", "tokens"), [
    (Discovery.LOAD_BY_NAME, {"@load"}),  # load by name only
    (Discovery.SEARCH_THEN_LOAD, {"@search", "@load"}),  # a search, then a load by name
    (Discovery.SEARCH_LOADS, {"@search"}),  # the search loads what it finds
])
@pytest.mark.parametrize(("unload", "listing", "extra"), [
    (frozenset(), False, set()), (frozenset({UnloadBy.MODEL}), False, {"@unload"}),
    (frozenset({UnloadBy.HOST}), True, {"@list"}), (frozenset(UnloadBy), True, {"@unload", "@list"}),
])
def test_the_loader_tools_are_the_ones_the_options_name(discovery, tokens, unload, listing, extra):
    options = Options(discovery=discovery, unload=unload, listing=listing)
    assert {role.token for role in options.roles} == tokens | extra


def test_an_empty_declaration_takes_the_schema_defaults():
    assert Options.from_json({}).to_json() == {
        "state_scope": "thread", "discovery": "load_by_name", "listing": False, "unload": ["model"], "batch": True,
        "order": "append", "hidden_calls": "refused", "expiry": "none"}
