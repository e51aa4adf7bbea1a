"""The language server's wiring (pygls over stdio): open and changed buffers are linted after a
short pause in typing, Python server files when saved (they are imported, in another process,
with the import timeout), and diagnostics, code actions and hover come from :mod:`.analysis`.

Settings (``initializationOptions``): ``profiles`` (decoder profiles added to the
configuration's), ``debounce`` (seconds to wait after a change; default 0.3),
``unsafeFixes`` (include unsafe fixes in "fix all"; default false), ``python`` (the interpreter
that imports Python server files, as ``scan --python``) and ``importTimeout`` (seconds, as
``scan --import-timeout``). ``workspace/didChangeConfiguration`` changes them.
"""

from __future__ import annotations

import asyncio
import os

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__
from ..errors import McplintError
from ..model import Severity
from . import analysis

FIX_ALL = "source.fixAll.mcplint"
SEVERITY = {Severity.ERROR: types.DiagnosticSeverity.Error, Severity.WARNING: types.DiagnosticSeverity.Warning,
            Severity.INFO: types.DiagnosticSeverity.Information}


class McplintServer(LanguageServer):
    def __init__(self):
        super().__init__("mcplint", __version__)
        self.settings: dict = {}
        self.linted: dict = {}  # uri -> (text, fmt, [Diag]) of the last lint of an open buffer
        self.published: dict = {}  # Python server uri -> uris its diagnostics were published to
        self.pending: dict = {}  # uri -> the debounce timer
        self.recognised: set = set()  # uris that held tool definitions once (a shape error is then shown)
        self.generation: dict = {}  # Python server uri -> the number of its latest lint (older ones are dropped)

    # -- configuration -------------------------------------------------------------------------
    def config_for(self, path: str):
        profiles = self.settings.get("profiles") or ()
        if isinstance(profiles, str):
            profiles = (profiles,)
        config = analysis.workspace_config(path, tuple(str(p) for p in profiles))
        timeout = self.settings.get("importTimeout")
        python = self.settings.get("python") or os.environ.get("MCPLINT_SERVER_PYTHON") or None
        return config.with_overrides(python=str(python) if python else None,
                                     import_timeout=float(timeout) if isinstance(timeout, (int, float)) and timeout > 0
                                     else None)

    def root(self) -> str | None:
        return self.workspace.root_path

    # -- linting -------------------------------------------------------------------------------
    def schedule(self, uri: str) -> None:
        old = self.pending.pop(uri, None)
        if old is not None:
            old.cancel()
        delay = float(self.settings.get("debounce", 0.3))
        loop = asyncio.get_running_loop()
        self.pending[uri] = loop.call_later(delay, self.lint_buffer, uri)

    def lint_buffer(self, uri: str) -> None:
        self.pending.pop(uri, None)
        path = to_fs_path(uri)
        if path is None or uri not in self.workspace.text_documents:
            return
        kind = analysis.kind_of(path)
        if kind not in ("json", "yaml", "toml"):
            return
        doc = self.workspace.get_text_document(uri)
        text = doc.source
        diags = self._diagnose(uri, path, text, kind)
        self.linted[uri] = (text, kind, diags)
        self.publish(uri, diags, text)

    def _diagnose(self, uri: str, path: str, text: str, kind: str) -> list:
        try:
            config = self.config_for(path)
        except McplintError as e:
            return [analysis.error_diagnostic(path, _config_error(e))]
        if analysis.is_excluded(path, config):
            return []
        known = uri in self.recognised or analysis.named_as_tools(path)
        try:
            _, findings = analysis.lint_text(path, text, kind, config, known)
        except analysis.NotTools:
            return []  # a JSON or YAML file that is not tool definitions: not mcplint's
        except McplintError as e:
            return [analysis.error_diagnostic(path, e)]
        except Exception as e:  # a bug in mcplint: said on the file, and the server lives on
            return [analysis.Diag(path, (0, 0, 0, 1), Severity.ERROR,
                                  f"internal error: {type(e).__name__}: {e} (this is a bug in mcplint)")]
        self.recognised.add(uri)
        return analysis.diagnostics(path, text, findings)

    async def lint_python(self, uri: str) -> None:
        path = to_fs_path(uri)
        try:
            config = self.config_for(path)
        except McplintError as e:
            self.publish(uri, [analysis.error_diagnostic(path, _config_error(e))])
            return
        from ..engine import lint_paths

        self.generation[uri] = generation = self.generation.get(uri, 0) + 1
        result = await asyncio.to_thread(lint_paths, [path], config, 1)
        if self.generation.get(uri) != generation:  # saved again (or closed) meanwhile: that lint publishes
            return
        by_file = analysis.python_diagnostics(result)
        by_uri = {from_fs_path(f): d for f, d in by_file.items()}
        self.linted[uri] = (None, "python", by_uri.get(uri, []))
        for old in self.published.get(uri, set()) - set(by_uri) - {uri}:
            self.publish(old, [])
        by_uri.setdefault(uri, [])
        for target, diags in by_uri.items():
            self.publish(target, diags)
        self.published[uri] = set(by_uri)

    def relint_all(self) -> None:
        for uri in list(self.workspace.text_documents):
            path = to_fs_path(uri) or ""
            if analysis.kind_of(path) in ("json", "yaml", "toml"):
                self.lint_buffer(uri)
            elif analysis.kind_of(path) == "python" and uri in self.linted:
                asyncio.ensure_future(self.lint_python(uri))

    # -- conversion ----------------------------------------------------------------------------
    def lines_of(self, uri: str, text: str | None = None) -> list[str]:
        if uri in self.workspace.text_documents:
            return self.workspace.get_text_document(uri).lines
        if text is None:
            try:
                with open(to_fs_path(uri), encoding="utf-8") as fh:
                    text = fh.read()
            except (OSError, UnicodeDecodeError, TypeError):
                text = ""
        return text.splitlines(keepends=True)

    def to_range(self, lines: list[str], rng: tuple) -> types.Range:
        codec = self.workspace.position_codec
        return codec.range_to_client_units(lines, types.Range(types.Position(rng[0], rng[1]),
                                                              types.Position(rng[2], rng[3])))

    def publish(self, uri: str, diags: list, text: str | None = None) -> None:
        lines = self.lines_of(uri, text)
        out = []
        for d in diags:
            related = [types.DiagnosticRelatedInformation(types.Location(from_fs_path(p), self.to_range(lines, r)), m)
                       for p, r, m in d.related] or None
            out.append(types.Diagnostic(
                range=self.to_range(lines, d.range), message=d.message, severity=SEVERITY[d.severity],
                code=d.rule, code_description=types.CodeDescription(href=d.url) if d.url else None,
                source="mcplint", related_information=related))
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=out))


def _config_error(e: McplintError) -> McplintError:
    """A configuration error shown on the file being linted: where it is, in the message."""
    return McplintError(f"the mcplint configuration is invalid: {e}", origin=e.origin)


server = McplintServer()


@server.feature(types.INITIALIZE)
def initialize(ls: McplintServer, params: types.InitializeParams) -> None:
    options = params.initialization_options
    ls.settings = dict(options) if isinstance(options, dict) else {}


@server.feature(types.INITIALIZED)
async def initialized(ls: McplintServer, params: types.InitializedParams) -> None:
    """Ask the client to report changes to configuration files (for those it does not open)."""
    watched = ls.client_capabilities.workspace and ls.client_capabilities.workspace.did_change_watched_files
    if not (watched and watched.dynamic_registration):
        return
    options = types.DidChangeWatchedFilesRegistrationOptions(watchers=[
        types.FileSystemWatcher(glob_pattern="**/{.mcplint.yaml,.mcplint.yml,pyproject.toml}")])
    try:
        await ls.client_register_capability_async(types.RegistrationParams(registrations=[types.Registration(
            id="mcplint-configuration", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options)]))
    except Exception:  # the client refused: a change applies at the next lint of each file
        pass


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: McplintServer, params: types.DidOpenTextDocumentParams) -> None:
    uri = params.text_document.uri
    kind = analysis.kind_of(to_fs_path(uri) or "")
    if kind in ("json", "yaml", "toml"):
        ls.lint_buffer(uri)
    elif kind == "python":
        await ls.lint_python(uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: McplintServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: McplintServer, params: types.DidSaveTextDocumentParams) -> None:
    kind = analysis.kind_of(to_fs_path(params.text_document.uri) or "")
    if kind == "python":
        await ls.lint_python(params.text_document.uri)
    elif kind == "config":
        ls.relint_all()


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: McplintServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    timer = ls.pending.pop(uri, None)
    if timer is not None:
        timer.cancel()
    ls.linted.pop(uri, None)
    ls.generation[uri] = ls.generation.get(uri, 0) + 1  # a lint still running publishes nothing
    for target in ls.published.pop(uri, set()) | {uri}:
        ls.publish(target, [])


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched(ls: McplintServer, params: types.DidChangeWatchedFilesParams) -> None:
    if any(analysis.kind_of(to_fs_path(c.uri) or "") == "config" for c in params.changes):
        ls.relint_all()


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
def did_change_configuration(ls: McplintServer, params: types.DidChangeConfigurationParams) -> None:
    """New settings (``{"mcplint": {...}}`` or the settings themselves) replace those given; open
    files are linted again."""
    new = params.settings
    if isinstance(new, dict) and isinstance(new.get("mcplint"), dict):
        new = new["mcplint"]
    if isinstance(new, dict) and new:
        ls.settings = {**ls.settings, **new}
        ls.relint_all()


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: McplintServer, params: types.HoverParams) -> types.Hover | None:
    uri = params.text_document.uri
    entry = ls.linted.get(uri)
    if entry is None or uri not in ls.workspace.text_documents:
        return None
    doc = ls.workspace.get_text_document(uri)
    pos = doc.position_codec.position_from_client_units(doc.lines, params.position)
    here = [d for d in entry[2] if d.rule and analysis.contains(d.range, pos.line, pos.character)]
    here.sort(key=lambda d: (d.range[2] - d.range[0], d.range[3] - d.range[1]))  # the innermost first
    rules = [d.rule for d in here]
    text = analysis.hover_markdown(rules)
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
    code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=False))
def code_action(ls: McplintServer, params: types.CodeActionParams):
    from .actions import code_actions

    return code_actions(ls, params)


def main() -> None:
    server.start_io()
