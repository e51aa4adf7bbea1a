"""``--format github``: workflow commands that GitHub Actions shows as annotations."""

from __future__ import annotations

LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def _data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(s: str) -> str:
    return _data(s).replace(":", "%3A").replace(",", "%2C")


def render(result, options) -> str:
    from .sarif import is_virtual

    out = []
    for f in result.findings:
        virtual = is_virtual(f.file)  # a probe's capture that was not saved: no file to annotate
        props = [] if virtual else [f"file={_prop(f.file)}", f"line={f.line}", f"col={f.column}"]
        if f.region and not virtual:
            props += [f"endLine={f.region.end_line}", f"endColumn={f.region.end_col}"]
        props.append(f"title={_prop(f'{f.rule} {f.name}')}")
        where = f" [{f.pointer}]" if str(f.pointer) else ""
        if virtual:
            where += f" in {f.file}"
        tool = f" (tool {f.tool})" if f.tool else ""
        prof = f" [profile {f.profile}]" if f.profile else ""
        fix = f"\nFix: {f.fix.title}" if f.fix else ""
        out.append(f"::{LEVEL[f.severity.label]} {','.join(props)}::{_data(f.message + tool + prof + where + fix)}")
    for err in getattr(result, "errors", ()):  # input that could not be used: annotate it too
        origin = getattr(err, "origin", None)
        props = [f"file={_prop(origin)}"] if origin and not is_virtual(origin) else []
        if props and getattr(err, "line", None) is not None:
            props.append(f"line={err.line}")
            if err.col is not None:
                props.append(f"col={err.col}")
        props.append(f"title={_prop('mcplint ' + getattr(err, 'kind', 'error'))}")
        text = getattr(err, "message", str(err))
        if getattr(err, "expected", None):
            text += f" (expected {err.expected})"
        out.append(f"::error {','.join(props)}::{_data(text)}")
    return "\n".join(out) + ("\n" if out else "")
