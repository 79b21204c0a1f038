"""``pas lsp`` driven by pygls's own language client over a pipe: diagnostics, the rules across files, quick fixes."""

from __future__ import annotations

import asyncio
import sys
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from conformance.validate.editor import Workspace, fixable_codes, fixes

BRIEF_NO_OPT_IN = ("name: Weather\nmodule_name: weather\nversion: 1.0.0\ndescription: Forecasts.\n"
                   "sleep_brief: Weather for any city. Activate when the user asks about it.\n")
PROTECTED = ("name: Core\nmodule_name: core\nversion: 1.0.0\ndescription: Core tools.\nallow_sleep: false\n"
             "sleep_brief: >-\n  Core tools for every chat,\n  never asleep.\n\nbuiltin: true\n")


def _manifest(module: str, depends: str) -> str:
    return (f"name: {module}\nmodule_name: {module}\nversion: 1.0.0\ndescription: d\n"
            f"dependencies: [{depends}]\n")


class Session:
    """A pas lsp process and pygls's client, with the diagnostics published so far, by URI."""

    def __init__(self, root: Path) -> None:
        self.root, self.client = root, LanguageClient("pas-tests", "1")
        self.diagnostics: dict[str, list[types.Diagnostic]] = {}
        self.counts: Counter[str] = Counter()  # publications per URI

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
            self.diagnostics[params.uri] = params.diagnostics
            self.counts[params.uri] += 1

    async def _published(self, before: Counter[str], uris: list[str]) -> None:
        """Wait until each of ``uris`` has been published again since ``before``."""
        async def wait() -> None:
            while any(self.counts[uri] <= before[uri] for uri in uris):
                await asyncio.sleep(0.01)

        await asyncio.wait_for(wait(), 30)

    async def start(self) -> None:
        await self.client.start_io(sys.executable, "-m", "conformance", "lsp")
        await self.client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=from_fs_path(str(self.root)),
            workspace_folders=[types.WorkspaceFolder(uri=from_fs_path(str(self.root)), name="plugins")]))
        self.client.initialized(types.InitializedParams())

    async def open(self, path: Path, text: str | None = None) -> str:
        uri, before = from_fs_path(str(path)), Counter(self.counts)
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=uri, language_id="yaml", version=1, text=path.read_text(encoding="utf-8") if text is None else text)))
        await self._published(before, [uri])
        return uri

    async def change(self, uri: str, text: str, version: int = 2, also: tuple[str, ...] = ()) -> None:
        """Replace the buffer's text; wait for its diagnostics (and those of ``also``)."""
        before = Counter(self.counts)
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
        await self._published(before, [uri, *also])

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()

    def codes(self, uri: str) -> list[str]:
        return [d.code for d in self.diagnostics.get(uri, [])]


def _run(root: Path, scenario) -> None:
    async def main() -> None:
        session = Session(root)
        await session.start()
        try:
            await scenario(session)
        finally:
            await session.stop()

    asyncio.run(main())


def test_diagnostics_carry_the_rule_its_page_and_the_place(tmp_path):
    path = tmp_path / "weather.pas-plugin.yaml"
    path.write_text(BRIEF_NO_OPT_IN, encoding="utf-8")

    async def scenario(session: Session) -> None:
        uri = await session.open(path)
        (found,) = session.diagnostics[uri]
        assert found.code == "brief-without-allow-sleep" and found.source == "pas"
        assert found.severity is types.DiagnosticSeverity.Warning
        assert found.code_description.href == "https://plugin-activation-spec.org/rules/brief-without-allow-sleep/"
        assert (found.range.start.line, found.range.start.character) == (4, 13)
        await session.change(uri, BRIEF_NO_OPT_IN + "allow_sleep: true\n")  # the unsaved buffer, not the file
        assert session.codes(uri) == []

    _run(tmp_path, scenario)


def test_a_dependency_cycle_across_files_reaches_the_open_one(tmp_path):
    (tmp_path / "a.pas-plugin.yaml").write_text(_manifest("a", "b"), encoding="utf-8")
    b = tmp_path / "b.pas-plugin.yaml"
    b.write_text(_manifest("b", "c"), encoding="utf-8")

    async def scenario(session: Session) -> None:
        uri = await session.open(b)
        a_uri = from_fs_path(str(tmp_path / "a.pas-plugin.yaml"))
        assert "missing-dependency" in session.codes(uri) and "dependency-cycle" not in session.codes(a_uri)
        await session.change(uri, _manifest("b", "a"), also=(a_uri,))  # a -> b -> a, reported at a's dependency
        assert session.codes(a_uri) == ["dependency-cycle"] and session.codes(uri) == []
        await session.change(uri, _manifest("b", ""), version=3, also=(a_uri,))  # withdrawn from the closed file
        assert session.codes(a_uri) == []
        await session.open(tmp_path / "a.pas-plugin.yaml")
        await session.change(uri, _manifest("b", "a"), version=4, also=(a_uri,))
        assert session.codes(a_uri) == ["dependency-cycle"]
        await session.change(uri, _manifest("b", ""), version=5, also=(a_uri,))
        assert session.codes(a_uri) == [] and session.codes(uri) == []

    _run(tmp_path, scenario)


def test_quick_fixes_are_offered_for_the_diagnostic_under_the_cursor(tmp_path):
    path = tmp_path / "core.pas-plugin.yaml"
    path.write_text(PROTECTED, encoding="utf-8")

    async def scenario(session: Session) -> None:
        uri = await session.open(path)
        (found,) = [d for d in session.diagnostics[uri] if d.code == "protected-brief"]
        actions = await session.client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=found.range,
            context=types.CodeActionContext(diagnostics=[found])))
        titles = {action.title: action for action in actions}
        assert set(titles) == {"Let the plugin sleep: allow_sleep: true", "Remove sleep_brief (the model never sees it)"}
        (edit,) = titles["Let the plugin sleep: allow_sleep: true"].edit.changes[uri]
        assert (edit.range.start.line, edit.new_text) == (4, " true")
        (remove,) = titles["Remove sleep_brief (the model never sees it)"].edit.changes[uri]
        assert (remove.range.start.line, remove.range.end.line, remove.new_text) == (5, 8, "")

    _run(tmp_path, scenario)


def test_fixes_applied_to_the_text_clear_the_problem(tmp_path):
    cases = {"brief-without-allow-sleep": BRIEF_NO_OPT_IN, "protected-brief": PROTECTED,
             "ambiguous-yaml-value": BRIEF_NO_OPT_IN + "allow_sleep: true\nx-enabled: yes\n"}
    assert set(cases) == set(fixable_codes())
    workspace = Workspace(tmp_path)
    for code, text in cases.items():
        path = str(tmp_path / "m.pas-plugin.yaml")
        (problem,) = [p for p in workspace.check({path: text})[path] if p.code == code]
        for fix in fixes(problem, text):
            fixed = _apply(text, fix.edits)
            assert code not in [p.code for p in workspace.check({path: fixed})[path]], (fix.title, fixed)


def _apply(text: str, edits) -> str:
    lines = text.splitlines(keepends=True)
    for edit in sorted(edits, key=lambda e: (e.line, e.column), reverse=True):
        offset = sum(len(line) for line in lines[:edit.line]) + edit.column
        end = sum(len(line) for line in lines[:edit.end_line]) + edit.end_column
        joined = "".join(lines)
        lines = (joined[:offset] + edit.text + joined[end:]).splitlines(keepends=True)
    return "".join(lines)


def test_without_pygls_the_command_says_how_to_install_it(monkeypatch, capsys):
    from conformance.cli.main import main

    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)  # import fails as if pygls were missing
    monkeypatch.delitem(sys.modules, "conformance.cli.language_server", raising=False)
    assert main(["lsp"]) == 2
    assert "pip install pygls" in capsys.readouterr().err
