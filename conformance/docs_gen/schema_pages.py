"""The schema reference: every property of every bundled JSON Schema, as Markdown.

Each schema documents itself (title, description, default, enum, examples); these functions
only lay that out. Local and cross-schema ``$ref`` become links to the referenced section.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urldefrag, urljoin

from conformance.docs_gen._md import code, first_sentence, header, link, linkify, slug, table, value, yaml_block
from conformance.docs_gen.i18n import t

_CONSTRAINTS = (
    ("pattern", "Pattern", code), ("format", "Format", code), ("minLength", "Minimum length", str),
    ("maxLength", "Maximum length", str), ("minimum", "Minimum", str), ("maximum", "Maximum", str),
    ("minItems", "Minimum items", str), ("maxProperties", "Maximum properties", str),
    ("minProperties", "Minimum properties", str),
)


_INHERITED = frozenset({"pattern", "format", "minLength", "maxLength", "minimum", "maximum", "enum", "const"})


@dataclass(frozen=True, slots=True, kw_only=True)
class SchemaDoc:
    """One schema to document: its short name (``plugin-manifest``, ``protocol/hello-request``),
    its contents, the generated page it goes on (relative to docs/generated/) and the prefix
    of its anchors on that page."""

    name: str
    contents: Mapping[str, Any]
    page: str
    prefix: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class _Context:
    doc: SchemaDoc
    by_id: Mapping[str, SchemaDoc]
    known: frozenset[str]

    def href(self, target: SchemaDoc, anchor: str) -> str:
        """A link from this schema's page to ``anchor`` on ``target``'s page."""
        here = posixpath.dirname(self.doc.page)
        page = "" if target.page == self.doc.page else posixpath.relpath(target.page, here or ".")
        return f"{page}#{anchor}" if anchor else page

    def spec_page(self) -> str:
        """The specification page, relative to this schema's page."""
        return posixpath.relpath("specification.md", posixpath.dirname(self.doc.page) or ".")

    def resolve(self, ref: str) -> tuple[SchemaDoc, Mapping[str, Any], str] | None:
        """The schema, the node and the anchor a ``$ref`` points to (None when outside the bundle)."""
        url, fragment = urldefrag(urljoin(self.doc.contents.get("$id", ""), ref))
        target = self.by_id.get(url)
        if target is None:
            return None
        node: Any = target.contents
        for part in [p for p in fragment.split("/") if p]:
            node = node.get(part, {}) if isinstance(node, Mapping) else {}
        path = fragment.replace("/$defs/", "$defs.").replace("/properties/", ".").lstrip("/")
        anchor = target.prefix + slug(path) if path else (f"{target.prefix}top" if target.prefix else "")
        return target, node, anchor


def _ref_link(node: Mapping[str, Any], ctx: _Context) -> str | None:
    if "$ref" not in node:
        return None
    found = ctx.resolve(node["$ref"])
    if found is None:
        return code(node["$ref"])
    target, resolved, anchor = found
    text = resolved.get("title") or node["$ref"].rsplit("/", 1)[-1]
    return link(text, ctx.href(target, anchor))


def type_text(node: Any, ctx: _Context) -> str:
    """A one-line type: ``string``, ``array of string``, ``boolean or null``, a link for a ``$ref``."""
    if not isinstance(node, Mapping) or not node:
        return t("any")
    if "$ref" in node:
        found = ctx.resolve(node["$ref"])
        if found is None or "$id" in found[1]:
            return _ref_link(node, ctx) or t("any")  # a whole schema: its name says it all
        return f"{type_text(found[1], ctx)} ({_ref_link(node, ctx)})"
    if "type" in node:
        types = node["type"] if isinstance(node["type"], list) else [node["type"]]
        words = [t("array of {items}").format(items=_grouped(type_text(node["items"], ctx)))
                 if kind == "array" and node.get("items") else kind for kind in types]
        return t(" or ").join(words)
    if "const" in node:
        return t("constant {value}").format(value=value(node["const"]))
    if "enum" in node:
        names = {"str": "string", "bool": "boolean", "NoneType": "null", "int": "integer", "float": "number"}
        return t(" or ").join(dict.fromkeys(names.get(type(v).__name__, t("any")) for v in node["enum"]))
    for key in ("oneOf", "anyOf"):
        if key in node and all(isinstance(alt, Mapping) and set(alt) - {"required"} for alt in node[key]):
            return t(" or ").join(dict.fromkeys(type_text(alt, ctx) for alt in node[key]))
    return t("any")


def _grouped(text: str) -> str:
    return f"({text})" if t(" or ") in text else text


def _facts(node: Mapping[str, Any], required: bool | None, ctx: _Context) -> list[str]:
    inherited = {k: v for k, v in _resolved(node, ctx).items() if k in _INHERITED}
    node = {**inherited, **node}  # a $ref's constraints (pattern, enum ...) apply here too
    facts = [t("- **Type:** ") + type_text(node, ctx)]
    if required is not None:
        facts.append(t("- **Required:** ") + (t("yes") if required else t("no")))
    if "default" in node:
        facts.append(t("- **Default:** ") + value(node["default"]))
    if "enum" in node:
        facts.append(t("- **Allowed values:** ") + ", ".join(value(v) for v in node["enum"]))
    if "const" in node:
        facts.append(t("- **Allowed value:** {value} only").format(value=value(node["const"])))
    facts += [f"- **{t(label)}:** {render(node[key])}" for key, label, render in _CONSTRAINTS if key in node]
    if node.get("uniqueItems"):
        facts.append(t("- **Items:** unique"))
    names = node.get("propertyNames")
    if isinstance(names, Mapping) and names:
        facts.append(t("- **Keys:** ") + type_text(names, ctx))
    if "^x-" in node.get("patternProperties", {}):
        facts.append(t("- **Extensions:** keys starting with `x-` are allowed and ignored"))
    for key, words in (("oneOf", "- **Exactly one of** these keys: "), ("anyOf", "- **At least one of** these keys: ")):
        only_required = [alt["required"] for alt in node.get(key, []) if isinstance(alt, Mapping) and set(alt) == {"required"}]
        if only_required:
            facts.append(t(words) + ", ".join(code(k) for keys in only_required for k in keys))
    examples = node.get("examples", ())
    if examples and all(_inline(e) for e in examples):
        facts.append(t("- **Examples:** ") + ", ".join(value(e) for e in examples))
    elif examples:
        facts += ["", t("**Example:**") if len(examples) == 1 else t("**Examples:**"), ""]
        for example in examples:
            facts += yaml_block(example)
    return facts


def _inline(example: Any) -> bool:
    """Whether an example reads well inline (short), rather than as a YAML block."""
    return len(json.dumps(example, ensure_ascii=False)) <= 70


def _children(path: str, node: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any], bool | None]]:
    """The nested nodes documented below ``node``: properties, items, values of open mappings, forms."""
    found: list[tuple[str, Mapping[str, Any], bool | None]] = []
    required = set(node.get("required", ()))
    dot = f"{path}." if path else ""
    for name, child in node.get("properties", {}).items():
        found.append((f"{dot}{name}", child, name in required))
    items = node.get("items")
    if isinstance(items, Mapping) and _worth_a_section(items):
        found.append((f"{path}[]", items, None))
    extra = node.get("additionalProperties")
    if isinstance(extra, Mapping) and extra and _worth_a_section(extra):
        found.append((f"{dot}*", extra, None))
    for key in ("oneOf", "anyOf"):
        forms = [alt for alt in node.get(key, []) if isinstance(alt, Mapping) and _worth_a_section(alt)
                 and set(alt) != {"required"}]
        if len(forms) > 1 or (forms and "$ref" not in forms[0]):
            found += [(f"{path} (form {n})", alt, None) for n, alt in enumerate(forms, 1)]
    return found


def _worth_a_section(node: Mapping[str, Any]) -> bool:
    """Whether a nested node says more than its parent's type line already does."""
    return bool({"properties", "description", "title", "oneOf", "anyOf", "enum"} & set(node)) or (
        "$ref" not in node and bool({"pattern", "items", "additionalProperties"} & set(node)))


def _section(path: str, node: Mapping[str, Any], required: bool | None, level: int, ctx: _Context) -> list[str]:
    anchor = ctx.doc.prefix + slug(path)
    title = f" · {node['title']}" if node.get("title") else ""
    lines = [f"{'#' * min(level, 6)} `{path}`{title} {{ #{anchor} }}", ""]
    description = node.get("description") or _resolved(node, ctx).get("description", "")
    if description:
        lines += [linkify(description, ctx.known, ctx.spec_page()), ""]
    lines += _facts(node, required, ctx) + [""]
    for child_path, child, child_required in _children(path, node):
        lines += _section(child_path, child, child_required, level + 1, ctx)
    return lines


def _resolved(node: Mapping[str, Any], ctx: _Context) -> Mapping[str, Any]:
    found = ctx.resolve(node["$ref"]) if "$ref" in node else None
    return found[1] if found else {}


def _summary(contents: Mapping[str, Any], ctx: _Context) -> list[str]:
    required = set(contents.get("required", ()))
    rows = [
        [link(code(name), f"#{ctx.doc.prefix}{slug(name)}"), type_text(child, ctx), t("yes") if name in required else t("no"),
         value(child["default"]) if "default" in child else "",
         first_sentence(child.get("description") or _resolved(child, ctx).get("description", ""))]
        for name, child in contents.get("properties", {}).items()
    ]
    return table([t("Property"), t("Type"), t("Required"), t("Default"), t("Description")], rows) if rows else []


def schema_body(doc: SchemaDoc, by_id: Mapping[str, SchemaDoc], known: frozenset[str], level: int = 2) -> list[str]:
    """The Markdown lines documenting one schema; ``level`` is the heading level of its sections."""
    ctx = _Context(doc=doc, by_id=by_id, known=known)
    contents = doc.contents
    lines = [linkify(contents.get("description", ""), known, ctx.spec_page()), ""]
    lines += [f"- **`$id`:** {code(contents.get('$id', ''))}", t("- **Source:** ") + f"`spec/schemas/{doc.name}.schema.yaml`"]
    lines += [t("- **Top-level type:** ") + type_text(contents, ctx)] + _facts(contents, None, ctx)[1:] + [""]
    lines += _summary(contents, ctx)
    hashes = "#" * level
    if contents.get("properties"):
        lines += [f"{hashes} {t('Properties')} {{ #{doc.prefix}properties }}", ""]
        for path, child, required in _children("", {k: contents[k] for k in ("properties", "required") if k in contents}):
            lines += _section(path, child, required, level + 1, ctx)
    if contents.get("$defs"):
        lines += [f"{hashes} {t('Definitions')} {{ #{doc.prefix}definitions }}", ""]
        for name, child in contents["$defs"].items():
            lines += _section(f"$defs.{name}", child, None, level + 1, ctx)
    return lines


def schema_page(doc: SchemaDoc, by_id: Mapping[str, SchemaDoc], known: frozenset[str]) -> str:
    """A page documenting one schema."""
    title = doc.contents.get("title", doc.name)
    lines = header(title, f"spec/schemas/{doc.name}.schema.yaml") + schema_body(doc, by_id, known)
    return "\n".join(lines).rstrip() + "\n"


def combined_page(title: str, intro: str, docs: Sequence[SchemaDoc], by_id: Mapping[str, SchemaDoc],
                  known: frozenset[str]) -> str:
    """One page documenting several small schemas, each under its own H2 (anchor = its prefix + ``top``)."""
    sources = f"spec/schemas/{posixpath.dirname(docs[0].name)}/" if docs else "spec/schemas"
    lines = header(title, sources, intro=intro)
    lines += table([t("Schema"), t("Description")], [
        [link(d.contents.get("title", d.name), f"#{d.prefix}top"), first_sentence(d.contents.get("description", ""))]
        for d in docs
    ])
    for doc in docs:
        lines += [f"## {doc.contents.get('title', doc.name)} {{ #{doc.prefix}top }}", ""]
        lines += schema_body(doc, by_id, known, level=3)
    return "\n".join(lines).rstrip() + "\n"


def schema_index_page(docs: Sequence[SchemaDoc]) -> str:
    """The schema reference's landing page: one row per schema with its page and ``$id``."""
    lines = header(t("Schema reference"), "spec/schemas/", intro=t(
        "Every document PAS reads is described by a JSON Schema (draft 2020-12), kept as YAML "
        "under `spec/schemas/` and bundled in the `pas` wheel. `pas validate` and `pas run` check "
        "documents against these very files, and the pages below are generated from them. Each is also "
        "served as JSON at its `$id`, the URL editors are given (see [Writing a manifest](../../guides/manifest.md#editors))."))
    rows = []
    for doc in docs:
        target = posixpath.relpath(doc.page, "schemas") + (f"#{doc.prefix}top" if doc.prefix else "")
        rows.append([link(doc.contents.get("title", doc.name), target), code(doc.contents.get("$id", "")),
                     first_sentence(doc.contents.get("description", ""))])
    lines += table([t("Schema"), "$id", t("What it describes")], rows)
    return "\n".join(lines).rstrip() + "\n"

