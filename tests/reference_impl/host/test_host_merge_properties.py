"""Properties of the layered config merge (HOST-CFG-1, HOST-CFG-2, HOST-CFG-4, HOST-CFG-6)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.host_checks import KEYS, TREES, VALUES, flat_merge

from reference_impl.frozen import freeze, thaw
from reference_impl.host_config import (
    Assignment,
    Layer,
    Origin,
    SourceKind,
    deep_merge,
    leaves,
    merge_layers,
)

PROPERTY = settings(max_examples=80, deadline=None, database=None)
LAYERS = tuple(Layer)


def _assignment(layer: Layer, path: tuple[str, ...], value: Any) -> Assignment:
    return Assignment(module_name="m", path=path, value=value, origin=Origin(kind=SourceKind.COMMAND_LINE, name=layer))


# A layer is a list of assignments; an assignment at the root must write a mapping.
ASSIGNMENTS = st.one_of(
    st.tuples(st.just(()), TREES),
    st.tuples(st.lists(KEYS, min_size=1, max_size=3).map(tuple), VALUES),
)
LAYER_CONTENTS = st.lists(st.lists(ASSIGNMENTS, max_size=3), min_size=4, max_size=4)


def _layers(contents: list[list[tuple[tuple[str, ...], Any]]]) -> list[tuple[Layer, list[Assignment]]]:
    return [(layer, [_assignment(layer, path, value) for path, value in items])
            for layer, items in zip(LAYERS, contents)]


def _trees(contents: list[list[tuple[tuple[str, ...], Any]]]) -> list[tuple[str, Any]]:
    """The same layers as plain trees, one per assignment, for the independent model."""
    trees = []
    for layer, items in zip(LAYERS, contents):
        for path, value in items:
            for key in reversed(path):
                value = {key: value}
            trees.append((layer.value, value))
    return trees


def _at(tree: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        if not isinstance(tree, dict) or key not in tree:
            return KeyError
        tree = tree[key]
    return tree


@PROPERTY
@given(LAYER_CONTENTS)
def test_the_merge_is_deterministic_and_matches_an_independent_flat_model(contents) -> None:
    first = merge_layers("m", _layers(contents))
    second = merge_layers("m", _layers(contents))
    config, provenance = flat_merge(_trees(contents))
    assert first == second
    assert thaw(first.value) == config
    assert {p: v.layer.value for p, v in first.provenance.items()} == provenance


@PROPERTY
@given(LAYER_CONTENTS)
def test_later_layers_win_for_every_leaf_they_set(contents) -> None:
    merged = merge_layers("m", _layers(contents))
    value = thaw(merged.value)
    trees = _trees(contents)
    for index, (layer, tree) in enumerate(trees):
        later_paths = [p for _, later in trees[index + 1:] for p, _ in leaves(later)]
        for path, leaf in leaves(tree):
            touched = any(p[: len(path)] == path or path[: len(p)] == p for p in later_paths)
            if touched or leaf == {}:
                continue
            assert _at(value, path) == leaf
            pointer = "".join("/" + k for k in path)
            assert merged.provenance[pointer].layer.value == layer


@PROPERTY
@given(TREES, TREES)
def test_merging_a_layer_twice_changes_nothing(base, overlay) -> None:
    once = deep_merge(base, overlay)
    assert deep_merge(once, overlay) == once
    layers = [(Layer.DEFAULTS, [_assignment(Layer.DEFAULTS, (), base)]),
              (Layer.FILE, [_assignment(Layer.FILE, (), overlay)])]
    twice = [*layers, (Layer.FILE, [_assignment(Layer.FILE, (), overlay)])]
    assert merge_layers("m", twice) == merge_layers("m", layers)


@PROPERTY
@given(TREES, st.lists(TREES, max_size=3))
def test_keys_only_the_defaults_set_survive_every_deep_merge(defaults, higher) -> None:
    layers = [(Layer.DEFAULTS, [_assignment(Layer.DEFAULTS, (), defaults)])]
    layers += [(layer, [_assignment(layer, (), tree)]) for layer, tree in zip(LAYERS[1:], higher)]
    merged = merge_layers("m", layers)
    higher_paths = [p for tree in higher for p, _ in leaves(tree)]
    for path, leaf in leaves(defaults):
        if any(p[: len(path)] == path or path[: len(p)] == p for p in higher_paths):
            continue
        assert _at(thaw(merged.value), path) == leaf
        assert merged.provenance["".join("/" + k for k in path)].layer is Layer.DEFAULTS


@PROPERTY
@given(TREES)
def test_a_frozen_snapshot_equals_its_source_and_refuses_every_mutation(tree) -> None:
    snapshot = freeze(tree)
    assert thaw(snapshot) == tree
    for path, _ in leaves(tree):
        parent = _at(snapshot, path[:-1]) if path[:-1] else snapshot
        with pytest.raises(TypeError):
            parent[path[-1]] = "changed"


def test_a_nested_mapping_merges_key_by_key_and_lists_and_scalars_replace() -> None:
    base = {"api": {"timeout_s": 10, "retries": 2}, "tags": ["a", "b"], "units": "metric"}
    overlay = {"api": {"timeout_s": 5}, "tags": ["c"], "units": {"system": "si"}}
    assert deep_merge(base, overlay) == {"api": {"timeout_s": 5, "retries": 2}, "tags": ["c"],
                                         "units": {"system": "si"}}


def test_a_mapping_layer_does_not_alias_its_input() -> None:
    overlay = {"api": {"timeout_s": 5}}
    merged = deep_merge({}, overlay)
    merged["api"]["timeout_s"] = 99
    assert overlay == {"api": {"timeout_s": 5}}


def test_a_snapshot_list_is_a_tuple_and_nested_mappings_are_read_only() -> None:
    snapshot = freeze({"api": {"hosts": ["a", "b"]}})
    with pytest.raises(TypeError):
        snapshot["api"]["new"] = 1
    with pytest.raises(TypeError):
        snapshot["api"]["hosts"][0] = "c"
    assert snapshot["api"]["hosts"] == ("a", "b")
    with pytest.raises(AttributeError):
        snapshot["api"]["hosts"].append("c")


def test_an_empty_mapping_is_a_leaf_with_the_provenance_of_the_layer_that_wrote_it_last() -> None:
    layers = [(Layer.DEFAULTS, [_assignment(Layer.DEFAULTS, (), {"cache": {}})]),
              (Layer.FILE, [_assignment(Layer.FILE, (), {"cache": {}})])]
    merged = merge_layers("m", layers)
    assert thaw(merged.value) == {"cache": {}}
    assert merged.provenance["/cache"].layer is Layer.FILE


def test_an_empty_mapping_over_a_filled_one_keeps_the_lower_values_and_their_provenance() -> None:
    layers = [(Layer.DEFAULTS, [_assignment(Layer.DEFAULTS, (), {"cache": {"size": 3}})]),
              (Layer.FILE, [_assignment(Layer.FILE, (), {"cache": {}})])]
    merged = merge_layers("m", layers)
    assert thaw(merged.value) == {"cache": {"size": 3}}
    assert merged.provenance == {"/cache/size": merged.provenance["/cache/size"]}
    assert merged.provenance["/cache/size"].layer is Layer.DEFAULTS


def test_provenance_pointers_escape_slashes_and_tildes_in_keys() -> None:
    origin = Origin(kind=SourceKind.HOST_CONFIG, pointer="/config/m")
    merged = merge_layers("m", [(Layer.FILE, [Assignment(module_name="m", path=(), value={"a/b": {"c~d": 1}},
                                                         origin=origin)])])
    assert list(merged.provenance) == ["/a~1b/c~0d"]
    assert merged.provenance["/a~1b/c~0d"].origin.pointer == "/config/m/a~1b/c~0d"
