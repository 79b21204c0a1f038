"""The schema store: the fast path reads a schema file only when a lookup needs it, and every bundled
schema's ``$id`` is the one its path gives it (what lets it find the file without reading the others)."""

from __future__ import annotations

from conformance.documents import schemas
from reference_impl.spec_files import spec_dir


def test_every_bundled_schemas_id_is_the_base_plus_its_path():
    root = spec_dir() / "schemas"
    for uri in schemas.store():
        path = root / (uri.removeprefix(schemas.SCHEMA_BASE).removesuffix(".json") + ".yaml")
        assert uri.startswith(schemas.SCHEMA_BASE) and path.is_file(), uri
        assert schemas._paths()[uri] == path
    assert len(schemas._paths()) == len(schemas.store())


def test_the_lazy_store_and_the_whole_store_hold_the_same_objects():
    lazy = schemas.LazyStore()
    for uri, contents in schemas.store().items():
        assert lazy[uri] is contents
    assert set(lazy) == set(schemas.store()) and len(lazy) == len(schemas.store())


def test_a_lookup_of_an_id_no_file_has_is_a_key_error():
    lazy = schemas.LazyStore()
    assert lazy.get(schemas.SCHEMA_BASE + "protocol/no-such-request.schema.json") is None
    assert lazy.get("https://example.org/other.json") is None


def test_a_file_whose_id_differs_from_its_path_sends_every_lookup_to_the_whole_store(monkeypatch):
    moved = schemas.SCHEMA_BASE + "moved/host-config.schema.json"
    real = schemas.schema_id("host-config")
    paths = {moved: schemas._paths()[real]}
    monkeypatch.setattr(schemas, "_paths", lambda: paths)
    lazy = schemas.LazyStore()
    assert lazy.get(moved) is None  # read, found to be another $id's, so the whole store answers
    assert lazy[real]["$id"] == real

# How many schema files checking a message reads is speed: bench/caches.py counts it.
