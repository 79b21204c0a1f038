"""The YAML fast path (yaml-rs) reads a document exactly as the event loader does, or declines."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.documents import fastyaml
from conformance.documents.events import parse_events
from conformance.documents.loader import Limits, load_documents, parse_documents
from conformance.documents.plain import NOT_PLAIN_WORDS
from conformance.documents.yamldoc import Place, located

ROOT = Path(__file__).resolve().parents[3]
LIMITS = Limits()


def same(a: object, b: object) -> bool:
    """Equal values of the same types all the way down (1, 1.0 and True are three different values)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[key], b[key]) for key in a)  # type: ignore[index]
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))  # type: ignore[arg-type]
    return a == b or (a != a and b != b)  # NaN


def agrees(text: str) -> bool:
    """Whether the fast path declined ``text``, or read what the event loader reads with nothing to report."""
    value = fastyaml.fast_value(text, max_depth=LIMITS.max_depth, max_nodes=LIMITS.max_nodes)
    if value is None:
        return False
    documents, problems = parse_events(text, "x.yaml", LIMITS)
    assert problems == [] and len(documents) == 1, (text, problems)
    assert documents[0].ambiguous == [], (text, documents[0].ambiguous)
    assert same(value, documents[0].value), (text, value, documents[0].value)
    return True


def _repository_documents() -> list[Path]:
    folders = ("spec", "conformance/examples", "conformance/suite", "examples", "tests/conformance")
    return sorted(path for folder in folders for pattern in ("*.yaml", "*.yml", "*.json")
                  for path in (ROOT / folder).rglob(pattern) if ".venv" not in path.parts and "node_modules" not in path.parts)


def test_the_fast_path_reads_every_document_of_the_repository_as_the_event_loader_does():
    accepted = 0
    paths = _repository_documents()
    assert len(paths) > 300
    for path in paths:
        text = path.read_text(encoding="utf-8", errors="replace")
        accepted += agrees(text)
    assert accepted > len(paths) // 3, (accepted, len(paths))  # it is used, not only safe


def test_the_bundled_example_manifests_take_the_fast_path():
    for path in sorted((ROOT / "conformance/examples/plugins").glob("*.yaml")):
        assert agrees(path.read_text(encoding="utf-8")), path


@pytest.mark.parametrize("text", [
    "a: !!str 1\n", "a: !custom x\n", "a: &x 1\nb: *x\n", "a: {k: 1}\nb:\n  <<: {k: 2}\n", "%YAML 1.2\n---\na: 1\n",
    "a: 1\n---\nb: 2\n", "- a\n- b\n", "plain text\n", "", "# only a comment\n", "a: b\x01c\n", "a: b\x85c\n",
    "a: b\u2028c\n", "a: \ufeffb\n", "a: 1\na: 2\n", "version: 1.10\n", "a: 1_000\n", "a: 0b11\n",
    "a: 0X1F\n", "a: 0x_1\n", "a: yes\n", "a: 'yes'\n", "on: 1\n", "1: a\n", "~: a\n", "'': a\n", "a: [1, 2\n",
    "a: `x\n", "a: [@x]\n", "a:\n\tb: 1\n", "? [a, b]\n: c\n", "a: .inf\n", "a: '01.0'\n", "a: '1e3'\n", "a: '-1.0'\n", '{"a":*x}\n',
    # keys deeper down, looked at together after the walk: an indicator, a number, a word, not a string
    "a:\n  '-x': 1\n", "a: {'1.5': b}\n", "a:\n  - {yes: 1}\n", "a: [{b: {2: c}}]\n", 'a: {"\\0": 1, "?x": 2}\n',
    # floats not written as repr writes them (a trailing zero is a version that lost a digit), or beside such a word
    "a: 2.50\n", "a: 2.0\n", "a: [2.5, 1.10]\n", "a: 1e3\n", "a: 1.5e3\n", "a: .5\n", "a: +2.5\n", "a: 02.5\n",
    "a: 1.\n", "a: 1_0.5\n", "a: 0.10000000000000001\n", "a: 1e300\n", "a: .inf\n",
    "a: 2.5\nb: x 1.20 y\n", "a: 2.5\nb: 1_000\n", "a: -0.0\n", '{"a": 1e-07}\n', "a: 2.5\nb: 'x \"1.0'\n",
    "a: 2.5\nb: '1.0\"'\n", 'a: 2.5\nb: "x 1.0"\n',
    # an alias (to no anchor: yaml-rs refuses it, the event loader reports it)
    "a: *x\n", "a: [*x]\n", "a:\n  - *x\n", "? *x\n: 1\n",
], ids=repr)
def test_the_fast_path_declines_what_only_the_event_loader_reads_right(text):
    assert fastyaml.fast_value(text, max_depth=64, max_nodes=200_000) is None


@pytest.mark.parametrize("text", ["a: 2001-12-14\n", 'p: "^[0-9]*d$"\n', "a: Hello!\n", "a: x & y\n", "a: 10\n",
                                  "a: '1.0'\n", 'introduced_in: "1.10"\n', "a: ['0', '12']\n",
                                  # floats written as repr writes them, and the empty string (quoted or an empty block)
                                  "a: 1.5\n", "a: [2.5, -0.25, 0.1]\n", "a: {b: 3.75}\nc: '1.5'\n", '{"a": 2.5}\n',
                                  "a: 1.5\nb: 10\n", 'introduced_in: "1.0"\nrounds: 2.5\n', "a: ['1.10', 0.5]\n", "a: 2.5\nb: '1.10'\n", "a: ''\n", 'a: ["", x]\n', "a: |\nb: 1\n", "a: >-\nb: 1\n",
                                  # "*" starting a word, with no anchor in the text: no alias
                                  "a: >-\n  Use **bold** text\nb: 1\n", "a: b\n  *x\n", "a: b *x\n",
                                  '"a\\0-b": 1\n', '"\\0?x": {"c": 1}\n',
                                  # "`" and "@" start no plain scalar in either loader: these were quoted or block scalars
                                  "a: '`x` y'\n", 'a: "@x"\n', "a: >-\n  `x` is y\nb: 1\n", "'`k`': 1\n", "a: ['@x']\n"], ids=repr)
def test_the_fast_path_reads_what_looks_awkward_but_is_not(text):
    assert agrees(text)


def test_the_fast_path_keeps_the_depth_and_node_limits():
    deep = "a:\n" + "".join("  " * level + "b:\n" for level in range(1, 70)) + "  " * 70 + "c\n"
    assert fastyaml.fast_value(deep, max_depth=64, max_nodes=200_000) is None
    assert fastyaml.fast_value(deep, max_depth=80, max_nodes=200_000) is not None
    many = "a: [" + ", ".join("x" for _ in range(50)) + "]\n"
    assert fastyaml.fast_value(many, max_depth=64, max_nodes=52) is not None  # root, the list, 50 strings
    assert fastyaml.fast_value(many, max_depth=64, max_nodes=51) is None
    documents, problems = parse_documents(many, "many.yaml", Limits(max_nodes=51))
    assert [p.code for p in problems] == ["yaml-too-many-nodes"]


def test_no_word_the_walk_looks_up_is_longer_than_five_characters():
    # fastyaml._walk hashes a string only when it is short enough to be one of these words.
    assert max(map(len, NOT_PLAIN_WORDS)) <= 5


SCALARS = st.sampled_from([
    "yes", "no", "on", "Off", "y", "n", "true", "True", "TRUE", "tRUE", "false", "null", "Null", "nULL", "~", "",
    "1", "-1", "+1", "012", "0o17", "0O17", "0x1F", "0X1F", "-0x1F", "1_000", "0b11", "0x_1", "1.0", "1.10", "2.0",
    "1e3", ".5", "1.", ".inf", "-.Inf", ".NaN", "-.nan", "inf", "nan", "2001-12-14", "12:30:00", "1:2", "weather",
    "get_weather", "a b", "Déjà vu", "管理用户笔记", "🎲 dice", "x!", "a&b", "3*4", "<<", "%x", "-x", ".x", "'quoted'",
    '"double"', "'yes'", '"1.10"', "a: b", "a #b", "#c", "- x", "[a]", "{a}", "a,b", "? x", "|", ">", "@x", "`x",
    "\tx", "x\t", " x", "x ", "a\\nb", "\\u263a", "---", "...", "a\u00a0b", "é", "0", "00", "-", "+", ".", "~x",
    "x:", ":x", "x :", "x:y", "?x", "|x", ">x", "!x", "&x", "*x", "x]", "x}", "x,", "-", "x -", "? ", ": ",
    "|\n  block", "|-\n  block\n\n  more", ">\n  folded\n  line", "|+\n  kept\n\n", "|\n", ">-\n", "|2\n   indented",
    '"esc \\n \\t \\" \\/ \\x41"', "'it''s'", '"\\ud83d\\ude00"', '"multi\n  line"', "'multi\n\n  line'",
    "plain\n  continued", "x #c", "x#c",
    "2.5", "-0.25", "0.1", "1.5", "2.50", "+2.5", "02.5", "1_0.5", "1.5e3", "1e300", "0.10000000000000001", "-0.0",
    "'2.5'", "''", '""', "x 2.5", "2.5x", "2.5.1", "v1.5", "1.5 #c",
])
KEYS = st.sampled_from(["name", "module_name", "on", "yes", "1", "kind", "x-a", "'quoted'", "a b", "<<", "~", "null",
                        "true", "1.0", "methods", "é", '"json"', "? x", "x:", "-x", "?x", ":x", "|", "&a", "!t"])


def _render(value: object, indent: int, flow: bool) -> str:
    """Hand-written YAML: scalars written as drawn (plain, quoted, block), mappings and lists block or flow."""
    pad = "  " * indent
    if isinstance(value, dict):
        if flow or not value:
            return "{" + ", ".join(f"{k}: {_render(v, 0, True)}" for k, v in value.items()) + "}"
        return "".join(f"\n{pad}{k}:" + (" " + _render(v, indent + 1, False) if not isinstance(v, (dict, list)) or not v
                                         else _render(v, indent + 1, False)) for k, v in value.items())
    if isinstance(value, list):
        if flow or not value:
            return "[" + ", ".join(_render(v, 0, True) for v in value) + "]"
        return "".join(f"\n{pad}- " + _render(v, indent + 1, True) for v in value)
    return str(value).replace("\n", "\n" + pad)  # a block scalar's lines, indented under their key


TREES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
                     max_leaves=8)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=st.dictionaries(KEYS, TREES, min_size=1, max_size=4), flow=st.booleans(),
       end=st.sampled_from(["\n", "", "\n\n# end\n"]), crlf=st.booleans())
def test_the_fast_path_never_reads_hand_written_yaml_otherwise_than_the_event_loader(tree, flow, end, crlf):
    text = _render(tree, 0, flow).lstrip("\n") + end
    agrees(text.replace("\n", "\r\n") if crlf else text)


# Documents the fast path mostly reads: plain words, floats written many ways (as repr writes them or not), empty strings.
NUMBERS = st.floats(allow_nan=True, allow_infinity=True).flatmap(
    lambda x: st.sampled_from([repr(x), str(x), f"{x:.3f}", f"{x:e}", f"{x:g}", f"{x}0", f"'{x!r}'"]))
FLOATISH = st.sampled_from(["weather", "a b", "10", "-3", "2.5", "-0.25", "0.1", "1.5", "2.50", "1.10", "+2.5", ".5",
                            "1.5e3", "1e300", "''", '""', "'2.5'", "'1.0'", '"2.50"', "|\n", ">-\n", "|-\n", "x 2.5", "2.5.1",
                            "0.10000000000000001", "-0.0", "1_0.5", "2.5x", "'1.10'", "v1.5", "1.5 #c", "[]", "{}"]) | NUMBERS
FLOAT_TREES = st.recursive(FLOATISH, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.sampled_from(["name", "rounds", "x-a", "a b", "é"]), inner, max_size=3), max_leaves=6)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=st.dictionaries(st.sampled_from(["rounds", "value", "b"]), FLOAT_TREES, min_size=1, max_size=3),
       flow=st.booleans())
def test_the_fast_path_reads_floats_and_empty_strings_as_the_event_loader_does_or_declines(tree, flow):
    agrees(_render(tree, 0, flow).lstrip("\n") + "\n")


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=10)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=st.dictionaries(st.text(max_size=6), JSON, min_size=1, max_size=4), flow=st.sampled_from([None, True, False]),
       unicode=st.booleans(), as_json=st.booleans())
def test_the_fast_path_never_reads_dumped_yaml_or_json_otherwise_than_the_event_loader(value, flow, unicode, as_json):
    text = (json.dumps(value, ensure_ascii=not unicode) + "\n" if as_json else
            yaml.safe_dump(value, default_flow_style=flow, allow_unicode=unicode))
    agrees(text)


MANIFESTS = [path.read_text(encoding="utf-8") for path in sorted((ROOT / "conformance/examples/plugins").glob("*.yaml"))]
PIECES = [*" \n\t:-?,[]{}#&*!|>'\"%@`~\\x0.1", "yes", "1.10", ": ", "- ", "\n  ", "\n- ", "\r\n", "|-\n  ", ">\n  ",
          "1_0", "0x1", "null", "é", "\u00a0", "\\ud800\\udc00"]


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_fast_path_never_reads_a_damaged_manifest_otherwise_than_the_event_loader(data):
    # Edits of real manifests: how a person's typo looks, and where parsers part ways (a flow mapping
    # over two lines, "{a:?b}", a tab after "- " ... were found this way).
    text = data.draw(st.sampled_from(MANIFESTS))
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text)))
        if data.draw(st.booleans()):
            text = text[:at] + data.draw(st.sampled_from(PIECES)) + text[at:]
        else:
            text = text[:at] + text[at + data.draw(st.integers(1, 4)):]
    agrees(text)


def test_a_fast_path_document_finds_its_locations_when_asked(tmp_path):
    path = tmp_path / "w.yaml"
    path.write_text("# a comment\nname: Weather\nmethods:\n  - name: get\n    kind: tool\n", encoding="utf-8")
    (fast,), _ = load_documents(path)
    (slow,), _ = parse_events(path.read_text(encoding="utf-8"), str(path))
    assert not fast.marked
    assert fast.where("/methods/0/kind") == slow.where("/methods/0/kind") and fast.marked
    assert (fast.line, fast.locations, fast.key_locations) == (slow.line, slow.locations, slow.key_locations)


def test_a_place_is_found_later_by_reading_the_file_again_and_travels_between_processes(tmp_path):
    path = tmp_path / "w.yaml"
    path.write_text("name: Weather\nmodule_name: weather\ndependencies: [geo]\n", encoding="utf-8")
    (doc,), _ = load_documents(path)
    place = pickle.loads(pickle.dumps(doc.place("/dependencies/0")))
    assert isinstance(place, Place)
    where = located(place)
    assert (where.path, where.line, where.column) == (str(path), 3, 16)
    path.unlink()
    assert located(place).line is None  # the file is gone: the path alone
