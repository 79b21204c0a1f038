"""Reading NekroAgent plugin source files with :mod:`ast`: never importing or running them.

What is read, per file:

- every ``NekroPlugin(...)`` call (also ``api.NekroPlugin`` and ``import ... as`` aliases), its
  fields given as keywords or by position (values as :mod:`conformance.tools.extract.reader`
  resolves them; anything built at run time is a warning with file:line:col and the field is
  left out, never guessed). A call NekroAgent 2.4.0 would reject with ``TypeError`` when the
  plugin is imported (an unknown keyword, too many positional arguments, an argument given
  twice, a required one missing) is an error: NekroAgent never loads that plugin;
- every ``mount_sandbox_method`` / ``mount_prompt_inject_method`` / ``mount_collect_methods``
  (decorator or call form) and every module-level function, see
  :mod:`conformance.tools.extract.methods`;
- the file's imports, in order, so that :mod:`conformance.tools.extract.linking` can follow
  them the way Python runs them.

A UTF-8 byte order mark at the start of a file is skipped, as Python does.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from conformance.documents.suggest import did_you_mean
from conformance.tools.extract import methods as mounting
from conformance.tools.extract.linking import link
from conformance.tools.extract.model import FileScan, Located, Plugin, warning
from conformance.tools.extract.reader import Reader, Unresolved
from reference_impl.problems import Problem, Severity, SourceLocation

# NekroPlugin.__init__ of NekroAgent 2.4.0 (nekro_agent/services/plugin/base.py), in order.
PARAMETERS = ("name", "module_name", "description", "version", "author", "url", "support_adapter", "is_builtin",
              "is_package", "i18n_name", "i18n_description", "allow_sleep", "sleep_brief", "webui_path")
REQUIRED = PARAMETERS[:6]
FIELDS = ("name", "module_name", "description", "version", "author", "url", "support_adapter", "is_builtin",
          "allow_sleep", "sleep_brief")  # the ones a PAS manifest keeps
BOM = "\ufeff"


def _rejected(message: str, source: SourceLocation) -> Problem:
    return Problem(code="rejected-plugin-call", source=source, severity=Severity.ERROR,
                   message=f"{message}: NekroAgent 2.4.0 raises TypeError when it imports this plugin and never loads it")


def _signature_problems(reader: Reader, call: ast.Call) -> list[Problem]:
    """What makes NekroPlugin.__init__ raise TypeError (unknowable when ``*``/``**`` unpacking is used)."""
    problems = []
    if len(call.args) > len(PARAMETERS):
        problems.append(_rejected(f"NekroPlugin takes at most {len(PARAMETERS)} positional arguments, "
                                  f"not {len(call.args)}", reader.where(call.args[len(PARAMETERS)])))
    positional = set(PARAMETERS[:len(call.args)])
    for keyword in call.keywords:
        if keyword.arg is not None and keyword.arg not in PARAMETERS:
            problems.append(_rejected(f"NekroPlugin has no parameter '{keyword.arg}'{did_you_mean(keyword.arg, PARAMETERS)} "
                                      f"(it accepts {', '.join(PARAMETERS)})", reader.where(keyword)))
        elif keyword.arg in positional:
            problems.append(_rejected(f"'{keyword.arg}' is given both by position and by keyword", reader.where(keyword)))
    unpacked = any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords)
    missing = [name for name in REQUIRED if name not in positional and name not in {k.arg for k in call.keywords}]
    if missing and not unpacked:
        problems.append(_rejected(f"NekroPlugin requires {', '.join(missing)}", reader.where(call)))
    return problems


def _plugin(reader: Reader, call: ast.Call, variable: str | None) -> tuple[Plugin, list[Problem]]:
    problems = _signature_problems(reader, call)
    rejected = bool(problems)
    given: list[tuple[str, ast.expr]] = [(n, a) for n, a in zip(PARAMETERS, call.args) if n in FIELDS]
    for keyword in call.keywords:
        if keyword.arg is None:
            problems.append(warning("unresolved-field", "'**' arguments are unpacked at run time; fields they set "
                                     "are left out", reader.where(keyword.value)))
        elif keyword.arg in FIELDS:
            given.append((keyword.arg, keyword.value))
    fields: dict[str, Located] = {}
    for name, node in given:
        try:
            fields[name] = Located(value=reader.value(node), source=reader.where(node))
        except Unresolved as unresolved:
            problems.append(warning("unresolved-field", f"{name}: {unresolved.why}; the field is left out",
                                     reader.where(unresolved.node)))
    return Plugin(variable=variable, source=reader.where(call), fields=fields, rejected=rejected), problems


def _syntax_error(path: str, message: str, line: int | None = 1, column: int | None = 1) -> FileScan:
    return FileScan(path=path, problems=(Problem(code="syntax-error", message=message,
                                                 source=SourceLocation(path=path, line=line, column=column)),))


def scan_source(text: str, path: str) -> FileScan:
    """Everything one plugin source file defines and mounts; a syntax error is an error Problem."""
    text = text.removeprefix(BOM)
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as error:
        return _syntax_error(path, f"Python syntax error: {error.msg}", error.lineno, error.offset)
    except (ValueError, RecursionError, MemoryError) as error:  # NUL bytes; absurd nesting
        return _syntax_error(path, f"Python cannot parse it: {str(error) or type(error).__name__}")
    try:
        return _scan_tree(tree, Reader(tree, text, path))
    except RecursionError:  # e.g. thousands of chained '+': too deep to resolve, and no real plugin does it
        return _syntax_error(path, "expressions nest too deeply to read")


def _scan_tree(tree: ast.Module, reader: Reader) -> FileScan:
    plugins, problems = [], []
    bound = {id(node.value): node for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))}
    for node in ast.walk(tree):
        if not reader.is_plugin_call(node):
            continue
        statement = bound.get(id(node))
        targets = (statement.targets if isinstance(statement, ast.Assign) else [statement.target]) if statement else []
        variable = targets[0].id if len(targets) == 1 and isinstance(targets[0], ast.Name) else None
        plugin, found = _plugin(reader, node, variable)
        plugins.append(plugin)
        problems += found
        if variable is None:
            problems.append(warning("unbound-plugin", "this NekroPlugin(...) is not bound to a module-level name, "
                                     "so no mounted method can be linked to it", plugin.source))
    mounts, found = mounting.mounts(reader, tree)
    return FileScan(path=reader.path, plugins=tuple(plugins), mounts=tuple(mounts),
                    functions=mounting.functions(reader, tree), imports=reader.imports,
                    import_lines=tuple(reader.import_lines), unresolved_imports=tuple(reader.unresolved_imports),
                    problems=tuple(problems + found))


def extract(sources: Iterable[tuple[str, str]]) -> tuple[list[Plugin], list[Problem]]:
    """Plugins and problems from ``(path, text)`` pairs: scan each file, then link mounts across them."""

    scans = [scan_source(text, path) for path, text in sources]
    plugins, problems = link(scans)
    return plugins, [p for s in scans for p in s.problems] + problems
