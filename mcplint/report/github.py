"""``--format github``: workflow commands that GitHub Actions shows as annotations.

Every piece of input in a command (a file path, a tool name, a pointer, a message quoting
the input) is made inert first (:func:`mcplint.textsafe.inline`: no line break, control
character or ``##[`` of its own), then escaped as GitHub's workflow commands require. Information
is one notice per file and rule, with the count, unless ``--show-info``."""

from __future__ import annotations

from ..textsafe import github_data as _data, github_property as _prop, inline, lines

LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def _piece(text) -> str:
    """A piece of input in a command, which never begins the line (the command's ``::`` does)."""
    return inline(text, line_start=False)


def render(result, options) -> str:
    from .sarif import is_virtual

    from . import folded_words, servers_words, split_info

    shown, folded = split_info(result.findings, options)
    out = []
    for f in shown:
        virtual = is_virtual(f.file)  # a probe's capture that was not saved: no file to annotate
        props = [] if virtual else [f"file={_prop(_piece(f.file))}", f"line={f.line}", f"col={f.column}"]
        if f.region and not virtual:
            props += [f"endLine={f.region.end_line}", f"endColumn={f.region.end_col}"]
        props.append(f"title={_prop(f'{f.rule} {f.name}')}")
        where = f" [{_piece(f.pointer)}]" if str(f.pointer) else ""
        if virtual:
            where += f" in {_piece(f.file)}"
        tool = f" (tool {_piece(f.tool)})" if f.tool else ""
        prof = f" [profile {_piece(f.profile)}]" if f.profile else ""
        if f.servers:  # probe --from: several servers have it, reported once
            prof += f" [{_piece(servers_words(f))}]"
        fix = f"\nFix: {_piece(f.fix.title)}" if f.fix else ""
        out.append(f"::{LEVEL[f.severity.label]} {','.join(props)}::{_data(_piece(f.message) + tool + prof + where + fix)}")
    for group in folded:  # information: one notice per file and rule, at its first place, with the count
        f = group[0]
        virtual = is_virtual(f.file)
        props = ([] if virtual else [f"file={_prop(_piece(f.file))}", f"line={f.line}", f"col={f.column}"]) + [
            f"title={_prop(f'{f.rule} {f.name}')}"]
        text = _piece(folded_words(group)) + (f" in {_piece(f.file)}" if virtual else "")
        out.append(f"::notice {','.join(props)}::{_data(text)}")
    for err in result.errors:  # input that could not be used: annotate it too
        origin = getattr(err, "origin", None)
        props = [f"file={_prop(_piece(origin))}"] if origin and not is_virtual(origin) else []
        if props and getattr(err, "line", None) is not None:
            props.append(f"line={err.line}")
            if err.col is not None:
                props.append(f"col={err.col}")
        props.append(f"title={_prop('mcplint ' + getattr(err, 'kind', 'error'))}")
        text = getattr(err, "message", str(err))
        if getattr(err, "expected", None):
            text += f" (expected {err.expected})"
        out.append(f"::error {','.join(props)}::{_data(lines(text))}")
    return "\n".join(out) + ("\n" if out else "")
