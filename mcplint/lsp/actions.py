"""Code actions: each finding's fix as a quick fix (a safe one preferred, an unsafe one labelled),
every safe fix at once (``source.fixAll.mcplint``: the text ``mcplint scan --fix`` writes), and
the configuration entry that suppresses a finding."""

from __future__ import annotations

from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path

from ..errors import McplintError
from . import analysis

FIX_ALL = "source.fixAll.mcplint"


def _wanted(params: types.CodeActionParams, kind: str) -> bool:
    only = params.context.only
    return not only or any(kind == k or kind.startswith(k + ".") for k in only)


def _overlaps(rng: tuple, r: types.Range, lines_of) -> bool:
    (l0, c0, l1, c1) = rng
    a = lines_of(r.start)
    b = lines_of(r.end)
    return (l0, c0) <= b and a <= (l1, c1)


def code_actions(ls, params: types.CodeActionParams) -> list:
    uri = params.text_document.uri
    entry = ls.linted.get(uri)
    if entry is None or uri not in ls.workspace.text_documents:
        return []
    text, fmt, diags = entry
    doc = ls.workspace.get_text_document(uri)
    if text is None or doc.source != text:  # a Python file (not edited here), or linted before the last change
        return []
    path = to_fs_path(uri)

    def server_pos(p):
        q = doc.position_codec.position_from_client_units(doc.lines, p)
        return (q.line, q.character)

    out = []
    if _wanted(params, types.CodeActionKind.QuickFix):
        for d in diags:
            if d.rule and _overlaps(d.range, params.range, server_pos):
                out += _fixes_of(ls, uri, path, fmt, text, d)
                out += _suppress(ls, path, d)
    if _wanted(params, FIX_ALL) and params.context.only:  # asked for (on save, or by name): not on every cursor move
        out += _fix_all(ls, uri, path, fmt, text)
    return out


def _edit(ls, uri: str, lines: list, rng: tuple, new: str, version=None) -> types.WorkspaceEdit:
    edit = types.TextEdit(ls.to_range(lines, rng), new)
    if version is None:
        return types.WorkspaceEdit(changes={uri: [edit]})
    doc_id = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
    return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(doc_id, [edit])])


def _fixes_of(ls, uri: str, path: str, fmt: str, text: str, d) -> list:
    f = next((f for f in d.findings if f.fix and f.fix.patch), None)
    if f is None:
        return []
    fix = analysis.quick_fix(path, fmt, text, f)
    if fix is None:
        return []
    rng, new = fix
    unsafe = " (unsafe: changes what the schema accepts, or removes data)"
    title = f"{f.rule}: {f.fix.title}" + ("" if f.fix.safe else unsafe)
    lines = ls.workspace.get_text_document(uri).lines
    return [types.CodeAction(title=analysis.safe_lines(title), kind=types.CodeActionKind.QuickFix,
                             diagnostics=None, is_preferred=bool(f.fix.safe),
                             edit=_edit(ls, uri, lines, rng, new))]


def _fix_all(ls, uri: str, path: str, fmt: str, text: str) -> list:
    try:
        config = ls.config_for(path)
    except McplintError:
        return []
    fixed = analysis.fix_all(path, fmt, text, config, unsafe=bool(ls.settings.get("unsafeFixes")))
    if fixed is None:
        return []
    rng, new = fixed
    lines = ls.workspace.get_text_document(uri).lines
    return [types.CodeAction(title="mcplint: fix all safe fixes", kind=FIX_ALL,
                             edit=_edit(ls, uri, lines, rng, new))]


def _suppress(ls, path: str, d) -> list:
    try:
        config = ls.config_for(path)
    except McplintError:
        return []
    f = d.findings[0]
    where = analysis.suppression(config, path, f, ls.root())
    if where is None:
        return []
    file, current, rng, new = where
    target = from_fs_path(file)
    title = analysis.safe_lines(f"Suppress {f.rule} at {f.pointer or '(the document)'} in {file.rsplit('/', 1)[-1]}")
    if current is None:  # no configuration yet: create .mcplint.yaml
        edit = types.WorkspaceEdit(document_changes=[
            types.CreateFile(uri=target, options=types.CreateFileOptions(ignore_if_exists=True)),
            types.TextDocumentEdit(types.OptionalVersionedTextDocumentIdentifier(uri=target, version=None),
                                   [types.TextEdit(types.Range(types.Position(0, 0), types.Position(0, 0)), new)])])
    else:
        edit = _edit(ls, target, ls.lines_of(target, current), rng, new)
    return [types.CodeAction(title=title, kind=types.CodeActionKind.QuickFix, edit=edit)]
