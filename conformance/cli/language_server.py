"""``pas lsp``: a language server publishing ``pas validate``'s diagnostics, with quick fixes, on pygls.

pygls (an optional extra: ``pip install pygls``, or the package's ``lsp`` extra) speaks the
Language Server Protocol over standard input and output. This module only translates: every
open, change and save re-checks the open documents of that folder through
:class:`conformance.validate.editor.Workspace` (schema, rules, set rules such as dependency
cycles across the folder, suppressions, ``.pas.yaml``) and publishes each one's problems; a
code action asks :func:`conformance.validate.editor.fixes` for the problem under the cursor.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from conformance.validate.editor import Edit, Workspace, fixes
from conformance.validate.lint.registry import RULES
from reference_impl.problems import Problem, Severity

NAME = "pas"
SEVERITY = {Severity.ERROR: types.DiagnosticSeverity.Error, Severity.WARNING: types.DiagnosticSeverity.Warning,
            Severity.INFO: types.DiagnosticSeverity.Information}
SUFFIXES = (".yaml", ".yml", ".json")
CROSS_FILE_FAMILIES = ("graph", "host")  # the rule families that compare files (lint.check_set)


class PasLanguageServer(LanguageServer):
    """The server, with the folders it validates and the problems it last published per document."""

    def __init__(self) -> None:
        from reference_impl import __version__

        super().__init__(NAME, __version__)
        self.workspaces: dict[Path, Workspace] = {}
        self.published: dict[str, list[Problem]] = {}  # uri -> problems, for code actions
        self.elsewhere: dict[Path, set[str]] = {}  # folder -> files not open that have cross-file problems published

    def folder_of(self, path: Path) -> Path:
        """The set a document is checked in: the workspace folder holding it, else its own folder."""
        roots = [Path(to_fs_path(f.uri) or "") for f in self.workspace.folders.values()]
        if self.workspace.root_path:
            roots.append(Path(self.workspace.root_path))
        inside = [root for root in roots if root != Path() and path.is_relative_to(root)]
        return max(inside, key=lambda root: len(root.parts)) if inside else path.parent

    def workspace_for(self, folder: Path) -> Workspace:
        """The cached Workspace of ``folder`` (its ``.pas.yaml`` read once); a config error is logged."""
        if folder not in self.workspaces:
            self.workspaces[folder] = Workspace(folder)
            error = self.workspaces[folder].config_error
            if error:
                self.window_log_message(types.LogMessageParams(type=types.MessageType.Warning,
                                                               message=f"pas: {error}; using the defaults"))
        return self.workspaces[folder]


def _lines(text: str) -> list[str]:
    return text.splitlines() or [""]


def _position(server: PasLanguageServer, lines: list[str], line: int, column: int) -> types.Position:
    line = min(max(line, 0), len(lines) - 1)
    return server.workspace.position_codec.position_to_client_units(
        lines, types.Position(line=line, character=min(max(column, 0), len(lines[line]))))


def diagnostic(server: PasLanguageServer, problem: Problem, lines: list[str]) -> types.Diagnostic:
    """One problem as a diagnostic: from its column to the end of its line (line 1 when it has none)."""
    line = (problem.source.line or 1) - 1 if problem.source else 0
    column = (problem.source.column or 1) - 1 if problem.source else 0
    start = _position(server, lines, line, column)
    end = _position(server, lines, line, len(lines[min(max(line, 0), len(lines) - 1)]))
    rule = RULES.get(problem.code)
    return types.Diagnostic(
        range=types.Range(start=start, end=end), severity=SEVERITY[problem.severity], source=NAME, code=problem.code,
        code_description=types.CodeDescription(href=rule.docs_url) if rule else None,
        message=problem.message + (f" [{problem.pointer}]" if problem.pointer else ""))


def publish_folder(server: PasLanguageServer, folder: Path) -> None:
    """Check every open PAS-like document under ``folder`` together and publish each one's diagnostics.

    A problem of the rules across files (a dependency cycle, a duplicate module name, a strategy) is
    reported in one file of the set, maybe one not open: it is published for that file too (an
    editor lists it among its problems), and withdrawn when it is gone.
    """
    buffers, uris = {}, {}
    for uri, document in server.workspace.text_documents.items():
        path = Path(to_fs_path(uri) or "")
        if path.suffix.lower() in SUFFIXES and server.folder_of(path) == folder:
            buffers[str(path)], uris[str(path)] = document.source, uri  # the client's own URI, as it sent it
    found = server.workspace_for(folder).check(buffers)
    elsewhere = server.elsewhere.pop(folder, set())
    for name, problems in found.items():
        if name not in uris:
            problems = [p for p in problems if RULES.get(p.code) and RULES[p.code].family in CROSS_FILE_FAMILIES]
            if not problems:
                continue
            server.elsewhere.setdefault(folder, set()).add(name)
        _publish(server, uris.get(name) or from_fs_path(name) or name, problems, buffers.get(name))
    for name in elsewhere - server.elsewhere.get(folder, set()) - set(uris):
        _publish(server, from_fs_path(name) or name, [], None)


def _publish(server: PasLanguageServer, uri: str, problems: list[Problem], text: str | None) -> None:
    if text is None:
        try:
            text = Path(to_fs_path(uri) or "").read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            text = ""
    server.published[uri] = problems
    lines = _lines(text)
    server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
        uri=uri, diagnostics=[diagnostic(server, p, lines) for p in problems]))


def _text_edit(server: PasLanguageServer, lines: list[str], edit: Edit) -> types.TextEdit:
    def at(line: int, column: int) -> types.Position:
        if line >= len(lines):  # the end of the document
            return types.Position(line=len(lines), character=0)
        return _position(server, lines, line, column)

    return types.TextEdit(range=types.Range(start=at(edit.line, edit.column), end=at(edit.end_line, edit.end_column)),
                          new_text=edit.text)


def code_actions(server: PasLanguageServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    """A quick fix for each published problem under the cursor whose rule has one."""
    uri = params.text_document.uri
    text = server.workspace.get_text_document(uri).source
    lines = _lines(text)
    wanted = {(d.code, d.range.start.line) for d in params.context.diagnostics}
    actions = []
    for problem in server.published.get(uri, []):
        line = (problem.source.line or 1) - 1 if problem.source else 0
        if (problem.code, line) not in wanted:
            continue
        for fix in fixes(problem, text):
            edits: Any = {uri: [_text_edit(server, lines, edit) for edit in fix.edits]}
            actions.append(types.CodeAction(
                title=fix.title, kind=types.CodeActionKind.QuickFix, edit=types.WorkspaceEdit(changes=edits),
                diagnostics=[d for d in params.context.diagnostics if (d.code, d.range.start.line) == (problem.code, line)]))
    return actions


def build_server() -> PasLanguageServer:
    """The server with its handlers: open, change, save and close re-publish; code actions offer fixes."""
    server = PasLanguageServer()

    def refresh(uri: str) -> None:
        path = Path(to_fs_path(uri) or "")
        if path.suffix.lower() in SUFFIXES:
            publish_folder(server, server.folder_of(path))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        refresh(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        refresh(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        refresh(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        server.published.pop(params.text_document.uri, None)
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri,
                                                                                diagnostics=[]))
        refresh(params.text_document.uri)  # the others of its folder: a cycle through it may have gone

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    def code_action(params: types.CodeActionParams) -> list[types.CodeAction]:
        return code_actions(server, params)

    return server
