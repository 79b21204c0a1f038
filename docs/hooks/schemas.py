"""mkdocs hook: publish every bundled JSON Schema as JSON at the URL of its ``$id``.

``spec/schemas/**/*.schema.yaml`` are the schemas ``pas`` checks documents with; their ``$id`` is a
URL under the site (``https://plugin-activation-spec.org/schemas/1.0/plugin-manifest.schema.json``),
so that an editor given that URL in a ``yaml-language-server`` modeline finds the schema. After the
build, each one is written to the site at the path of its ``$id``, as the same JSON that
``pas schema NAME`` prints. Wired in mkdocs.yml (``hooks:``); this file is kept out of the pages
by ``exclude_docs``. tests/docs/test_docs_site_build.py compares every published file with its YAML.
The schema catalog (``spec/schemas/catalog.json``, SchemaStore's format: which file names each
schema describes) is published beside them as ``schemas/catalog.json``.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from urllib.parse import urlsplit

import yaml

log = logging.getLogger("mkdocs.hooks.schemas")


def published_schemas(spec_schemas: Path, site_url: str) -> dict[str, str]:
    """Site-relative path -> JSON text, for every schema whose ``$id`` lies under ``site_url``.

    Raises ValueError for a schema without an ``$id`` under the site, so that a typo in an ``$id``
    breaks the build instead of publishing the schema where no editor will look.
    """
    base = urlsplit(site_url)
    files = {}
    for path in sorted(spec_schemas.rglob("*.schema.yaml")):
        contents = yaml.safe_load(path.read_text(encoding="utf-8"))
        url = urlsplit(contents.get("$id", ""))
        if (url.scheme, url.netloc) != (base.scheme, base.netloc) or not url.path.startswith(base.path or "/"):
            raise ValueError(f"{path}: $id {contents.get('$id')!r} is not under site_url {site_url!r}")
        relative = url.path[len(base.path or "/"):].lstrip("/")
        files[relative] = json.dumps(contents, indent=2, ensure_ascii=False) + "\n"
    return files


def published_catalog(spec_schemas: Path, schemas: dict[str, str], site_url: str) -> tuple[str, str]:
    """(site-relative path, text) of the schema catalog; raises ValueError when an entry's ``url``
    or one of its ``versions`` is not a schema published by :func:`published_schemas`."""
    text = (spec_schemas / "catalog.json").read_text(encoding="utf-8")
    for entry in json.loads(text)["schemas"]:
        for url in (entry["url"], *entry.get("versions", {}).values()):
            if url.removeprefix(site_url) not in schemas:
                raise ValueError(f"catalog.json: {entry['name']}: {url} is not a published schema")
    return "schemas/catalog.json", text


def on_post_build(config, **kwargs) -> None:
    """Write the schemas into the English (root) site; the per-language builds skip it."""
    if (config.theme.get("language") or "en") != "en":
        return  # mkdocs-static-i18n builds zh/ with its own config; the schemas live once, at the root
    root = Path(config.config_file_path).parent
    files = published_schemas(root / "spec" / "schemas", config.site_url)
    catalog, text = published_catalog(root / "spec" / "schemas", files, config.site_url)
    files = {**files, catalog: text}
    for relative, text in files.items():
        target = Path(config.site_dir) / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="\n")
    log.info("published %d JSON schemas under %s", len(files), config.site_dir)
