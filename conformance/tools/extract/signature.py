"""A sandbox method's parameters, read from its ``def`` line, as a JSON Schema object.

NekroAgent passes the agent context as the first argument of every sandbox method (``_ctx:
AgentCtx``); the model never writes it, so it is not a parameter. The others become
properties: annotations map to JSON Schema types (``str`` -> string, ``int`` -> integer,
``float`` -> number, ``bool`` -> boolean, ``list``/``List[X]`` -> array, ``dict``/``Dict`` ->
object, ``Optional[X]``/``X | None`` -> X or null, ``Literal[...]`` -> enum); an annotation
with no JSON equivalent (a class, ``Any``) gives no ``type``. A constant default becomes
``default``; a parameter without one is ``required``. ``*args``/``**kwargs`` are left out.
Nothing is imported or evaluated.
"""

from __future__ import annotations

import ast
from typing import Any

_SCALARS = {"str": "string", "int": "integer", "float": "number", "bool": "boolean", "bytes": "string",
            "list": "array", "List": "array", "Sequence": "array", "tuple": "array", "Tuple": "array",
            "set": "array", "Set": "array", "dict": "object", "Dict": "object", "Mapping": "object"}
_CONTEXT_NAMES = frozenset({"_ctx", "ctx", "_agent_ctx"})
_NO_DEFAULT = object()


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Constant) and isinstance(node.value, str):  # a string annotation "List[str]"
        try:
            return _name(ast.parse(node.value, mode="eval").body)
        except SyntaxError:
            return None
    return None


def _constant(node: ast.expr | None) -> Any:
    """A JSON value written literally, or _NO_DEFAULT."""
    if node is None:
        return _NO_DEFAULT
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _NO_DEFAULT
    if isinstance(value, tuple):
        value = list(value)
    if value is None or isinstance(value, (str, bool, int, float, list, dict)):
        return value
    return _NO_DEFAULT


def annotation_schema(node: ast.expr | None) -> dict[str, Any]:
    """The JSON Schema of one annotation ({} when it has no JSON equivalent)."""
    if node is None:
        return {}
    if isinstance(node, ast.Constant) and node.value is None:
        return {"type": "null"}
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return annotation_schema(ast.parse(node.value, mode="eval").body)
        except SyntaxError:
            return {}
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _union([node.left, node.right])
    if isinstance(node, ast.Subscript):
        return _generic(_name(node.value), node.slice)
    kind = _SCALARS.get(_name(node) or "")
    return {"type": kind} if kind else {}


def _generic(origin: str | None, argument: ast.expr) -> dict[str, Any]:
    items = list(argument.elts) if isinstance(argument, ast.Tuple) else [argument]
    if origin == "Optional":
        return _union([items[0], ast.Constant(value=None)])
    if origin == "Union":
        return _union(items)
    if origin == "Literal":
        values = [_constant(item) for item in items]
        return {"enum": values} if all(v is not _NO_DEFAULT for v in values) else {}
    if origin == "Annotated":
        return annotation_schema(items[0])
    kind = _SCALARS.get(origin or "")
    if kind == "array" and origin not in ("tuple", "Tuple"):
        inner = annotation_schema(items[0])
        return {"type": "array", "items": inner} if inner else {"type": "array"}
    return {"type": kind} if kind else {}


def _union(members: list[ast.expr]) -> dict[str, Any]:
    schemas = [annotation_schema(m) for m in members]
    if any(not s for s in schemas):
        return {}
    types = [s["type"] for s in schemas if set(s) == {"type"} and isinstance(s["type"], str)]
    if len(types) == len(schemas):
        return {"type": list(dict.fromkeys(types))}
    return {"anyOf": schemas}


def _is_context(argument: ast.arg) -> bool:
    annotation = argument.annotation
    return argument.arg in _CONTEXT_NAMES or (annotation is not None and _name(annotation) == "AgentCtx")


def parameters_schema(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, Any]:
    """The JSON Schema of a sandbox method's arguments ({} when it takes none but the context)."""
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    pairs = list(zip(positional, defaults)) + list(zip(arguments.kwonlyargs, arguments.kw_defaults))
    if pairs and pairs[0][0] in positional and _is_context(pairs[0][0]):
        pairs = pairs[1:]
    properties: dict[str, Any] = {}
    required: list[str] = []
    for argument, default in pairs:
        schema = annotation_schema(argument.annotation)
        value = _constant(default)
        if value is not _NO_DEFAULT:
            schema = {**schema, "default": value}
        elif default is None:
            required.append(argument.arg)
        properties[argument.arg] = schema
    if not properties:
        return {}
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        parameters["required"] = required
    return parameters
