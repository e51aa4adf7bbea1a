"""What the language server shows, independent of the LSP library: a buffer linted into
diagnostics, the text edits of a finding's fix (and of every safe fix: ``--fix``'s), the
suppression entry a finding adds to the configuration, and a rule's documentation for hover.

Positions here are 0-based lines and characters counted in code points (Python's string
indices); the server converts them to the client's position encoding.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..config import Config, load_config
from ..errors import McplintError
from ..model import Finding, Severity, Source
from ..textsafe import lines as safe_lines

CONFIG_NAMES = (".mcplint.yaml", ".mcplint.yml", "pyproject.toml")


@dataclass
class Diag:
    """One diagnostic: a group of findings of one rule at one place (one per decoder profile or
    protocol version), or an input error (``rule`` None)."""

    path: str
    range: tuple  # (line, character, end line, end character), 0-based, code points
    severity: Severity
    message: str
    rule: str | None = None
    url: str | None = None
    related: list = field(default_factory=list)  # (path, range, message)
    findings: list = field(default_factory=list)


def kind_of(path: str) -> str | None:
    """``json``, ``yaml`` or ``python`` for a file mcplint lints, ``config`` for a configuration
    file, else None."""
    name = os.path.basename(path)
    if name in CONFIG_NAMES:
        return "config"
    from ..load import SUFFIXES

    suffix = Path(path).suffix.lower()
    if suffix == ".py":
        return "python"
    if path.replace("\\", "/").lower().endswith(".codex/config.toml"):  # Codex's client configuration
        return "toml"
    return SUFFIXES.get(suffix)


def parse_buffer(path: str, text: str, fmt: str):
    """A buffer's document, read as ``mcplint scan`` reads the file (mcplint.load.parse_file):
    Codex's config.toml as TOML, VS Code's ``.vscode/mcp.json`` as JSON with comments."""
    from ..load import parse, strip_jsonc

    if fmt == "toml":
        from ..model import Document
        from ..tomlmap import loads, spans

        source = Source(path, text, "json" if text.lstrip("\ufeff \t\r\n")[:1] in ("{", "[") else "yaml")
        return Document(source, loads(path, text), _spans=spans(text))
    try:
        return parse(Source(path, text, fmt))
    except McplintError:
        if not (fmt == "json" and path.replace("\\", "/").lower().endswith(".vscode/mcp.json")):
            raise
    return parse(Source(path, strip_jsonc(text), "json"))


def workspace_config(path: str, profiles: tuple = ()) -> Config:
    """The configuration ``mcplint scan`` would use for ``path`` (the nearest ``.mcplint.yaml`` or
    ``[tool.mcplint]`` above it), with ``profiles`` (the server's setting) added; raises a located
    ConfigError when the configuration is invalid."""
    config = load_config(start=Path(path).parent)
    if profiles:
        config = config.with_overrides(profiles=tuple(dict.fromkeys(config.profiles + tuple(profiles))))
    return config


def is_excluded(path: str, config: Config) -> bool:
    """A file ``mcplint scan DIR`` passes over (a package manifest, the config's ``exclude``)."""
    from ..load import DEFAULT_EXCLUDE, excluded

    root = os.path.dirname(config.origin) if config.origin else os.path.dirname(path)
    rel = os.path.relpath(path, root).replace(os.sep, "/")
    return excluded(rel, DEFAULT_EXCLUDE + tuple(config.exclude))


def named_as_tools(path: str) -> bool:
    """A file name that says it holds tool definitions (``weather.tools.json``, ``tools.yaml``,
    ``server.mcpdesc.json``)."""
    name = os.path.basename(path).lower()
    return "tools" in name or "mcpdesc" in name


def looks_like_tools(data) -> bool:
    """Could this be tool definitions? An array must hold an object with a schema member: in an
    editor, every JSON or YAML file comes by (a data file, an Ansible playbook is an array too)."""
    if isinstance(data, list):
        return any(isinstance(t, dict) and ("inputSchema" in t or "outputSchema" in t) for t in data[:100])
    return isinstance(data, dict)


class NotTools(Exception):
    """The buffer is not tool definitions (or not even JSON or YAML), and nothing says it should be."""


def lint_text(path: str, text: str, fmt: str, config: Config, known: bool = True):
    """(document, findings) of a buffer, as ``mcplint scan`` lints the file; raises McplintError.
    Unless ``known`` (the file held tool definitions before, or its name says it does), a buffer
    that is not tool definitions, is over the size limit or does not parse raises NotTools: an
    editor opens every JSON and YAML file (JSON with comments, manifests, data), and those are
    not mcplint's to judge."""
    from ..engine import lint_document

    if not known and len(text) > config.bounds.max_file_bytes:
        raise NotTools
    try:
        doc = parse_buffer(path, text, fmt)
        if not known and not looks_like_tools(doc.data):
            raise NotTools
        findings = lint_document(doc, config)[1]
    except McplintError:
        if not known:
            raise NotTools from None
        raise
    return doc, list(findings)


def _lines(text: str) -> list[str]:
    return text.split("\n")


def span_range(span, text_lines: list[str], whole: bool = False) -> tuple:
    """A Span (1-based, end exclusive) as a 0-based range. ``whole``: the finding is about the
    whole document, whose span is the whole file: its first line stands for it (as the command
    line's report points at 1:1), so it does not cover every other finding and every hover."""
    if span is None:
        return (0, 0, 0, len(text_lines[0]) if text_lines else 0)
    if whole and span.end_line > span.line:
        line = text_lines[span.line - 1] if span.line - 1 < len(text_lines) else ""
        return (span.line - 1, span.col - 1, span.line - 1, max(len(line.rstrip("\r")), span.col))
    return (span.line - 1, span.col - 1, span.end_line - 1, span.end_col - 1)


def rule_url(rule_id: str) -> str | None:
    """An absolute address of the rule's documentation: the rule's own, else the rules reference
    of this copy of mcplint when it is a source tree (an installed wheel has none to point at)."""
    from urllib.parse import urlsplit

    from ..registry import get

    m = get(rule_id)
    if m is None:
        return None
    if urlsplit(m.url).scheme:
        return m.url
    docs = Path(__file__).resolve().parent.parent.parent / m.url.split("#", 1)[0]
    if docs.is_file():
        return docs.as_uri() + ("#" + m.url.split("#", 1)[1] if "#" in m.url else "")
    return None


def _where(f: Finding) -> str:
    parts = []
    if f.profile:
        parts.append(f"profile {f.profile}")
    if f.versions:
        parts.append("MCP " + ", ".join(f.versions))
    return "; ".join(parts) or "also"


def _group(findings) -> list[list[Finding]]:
    groups: dict = {}
    for f in findings:
        groups.setdefault((f.rule, str(f.pointer), f.span, f.source), []).append(f)
    return [sorted(g, key=lambda f: (-int(f.severity), f.profile or "")) for g in groups.values()]


def diagnostics(path: str, text: str, findings) -> list[Diag]:
    """The findings of one document, one diagnostic per rule and place: the worst as its
    message, each other profile or version as related information at the same place."""
    text_lines = _lines(text)
    out = []
    for group in _group(findings):
        first = group[0]
        rng = span_range(first.span, text_lines, whole=not str(first.pointer))
        message = safe_lines(first.message)
        if first.profile:
            message += f" [{first.profile}]"
        related = [(path, rng, safe_lines(f"{_where(f)}: {f.message}")) for f in group[1:]]
        out.append(Diag(path, rng, first.severity, message, first.rule, rule_url(first.rule), related, group))
    return out


def error_diagnostic(path: str, e: McplintError) -> Diag:
    """An input error (invalid JSON mid-typing, say) as one diagnostic at its place."""
    line = max((e.line or 1) - 1, 0)
    col = max((e.col or 1) - 1, 0)
    message = e.message + (f" (expected {e.expected})" if e.expected else "")
    return Diag(path, (line, col, line, col + 1), Severity.ERROR, safe_lines(message))


def python_diagnostics(result) -> dict:
    """{file: [Diag]} of a Python server's lint: each finding on the code line that generated the
    schema part (the function, the argument, the model field), in whichever file that is."""
    by_file: dict = {}
    texts: dict = {}
    for doc in result.documents:
        if doc.code is not None:
            texts.update(doc.code.texts)
    for f in result.findings:
        file = os.path.abspath(f.source.file) if f.source else os.path.abspath(f.origin)
        by_file.setdefault(file, []).append(f)
    out: dict = {}
    for file, findings in by_file.items():
        text = texts.get(file)
        if text is None:
            try:
                text = Path(file).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                text = ""
        text_lines = _lines(text)
        diags = []
        for group in _group(findings):
            first = group[0]
            if first.source:
                line = max(first.source.line - 1, 0)
                end = len(text_lines[line]) if line < len(text_lines) else first.source.column
                rng = (line, max(first.source.column - 1, 0), line, max(end, first.source.column))
            else:
                rng = (0, 0, 0, len(text_lines[0]) if text_lines else 0)
            message = safe_lines(first.message + (f" (fix: {first.fix.title})" if first.fix else ""))
            related = [(file, rng, safe_lines(f"{_where(f)}: {f.message}")) for f in group[1:]]
            diags.append(Diag(file, rng, first.severity, message, first.rule, rule_url(first.rule), related, group))
        out[file] = diags
    for err in result.errors:
        if err.origin:
            out.setdefault(os.path.abspath(err.origin), []).append(error_diagnostic(os.path.abspath(err.origin), err))
    return out


def offset_position(text: str, offset: int) -> tuple[int, int]:
    before = text[:offset]
    line = before.count("\n")
    return line, offset - (before.rfind("\n") + 1)


def edit_range(text: str, start: int, end: int) -> tuple:
    return (*offset_position(text, start), *offset_position(text, end))


def quick_fix(path: str, fmt: str, text: str, finding: Finding) -> tuple | None:
    """The one edit (range, new text) that applies ``finding``'s patch to ``text``, checked as
    ``--fix`` checks each round (the edited text parses back to the patched data); None when it
    cannot be applied."""
    from ..autofix.apply import candidates, fix_round, parse_data
    from ..autofix.patch import PatchError, minimal_edit

    cands = candidates([finding], unsafe=True)
    if not cands or fmt not in ("json", "yaml"):
        return None
    try:
        new, applied = fix_round(path, fmt, text, parse_data(path, fmt, text), cands, {})
    except (McplintError, PatchError):
        return None
    if not applied or new == text:
        return None
    start, end, repl = minimal_edit(text, new)
    return edit_range(text, start, end), repl


def fix_all(path: str, fmt: str, text: str, config: Config, unsafe: bool = False) -> tuple | None:
    """What ``mcplint scan --fix`` writes for this text, as one edit (range, new text); None when
    nothing changes (a file that repeats a key is not fixed, as ``--fix`` leaves it)."""
    from ..autofix.apply import fix_text
    from ..autofix.patch import minimal_edit
    from ..engine import lint_document
    from ..load import parse

    if fmt not in ("json", "yaml"):  # (as --fix, which writes JSON and YAML only)
        return None
    try:
        doc, findings = lint_text(path, text, fmt, config)
    except McplintError:
        return None
    if doc.duplicate_keys:
        return None

    def relint(new):
        return lint_document(parse(Source(path, new, fmt)), config)[1]

    try:
        fx = fix_text(path, fmt, text, findings, relint, unsafe=unsafe)
    except McplintError:  # text mcplint reads only as JSON with comments: --fix leaves it too
        return None
    if fx.after == text:
        return None
    start, end, repl = minimal_edit(text, fx.after)
    return edit_range(text, start, end), repl


def suppression(config: Config, path: str, finding: Finding, root: str | None) -> tuple | None:
    """Where the entry that suppresses ``finding`` goes: (config file, its current text or None
    when it is created, edit range, new text). A YAML configuration is edited keeping its
    formatting; without a configuration, ``.mcplint.yaml`` is created in ``root``; a
    ``[tool.mcplint]`` table in pyproject.toml is left to the user (None)."""
    import json

    file = config.origin or (os.path.join(root, ".mcplint.yaml") if root else None)
    if file is None or file.endswith(".toml"):
        return None
    rel = os.path.relpath(path, os.path.dirname(file)).replace(os.sep, "/")
    entry = {"rule": finding.rule, "pointer": str(finding.pointer), "file": rel}
    if config.origin is None:
        return file, None, (0, 0, 0, 0), "suppress:\n  - " + json.dumps(entry) + "\n"
    try:
        text = Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    from ..autofix.apply import edit_for, editor_for
    from ..autofix.patch import PatchError

    import yaml

    try:
        editor = editor_for("yaml", text)
        data = yaml.safe_load(text)
    except (PatchError, yaml.YAMLError):
        return None
    if not isinstance(data, dict):  # empty or comments only: append the key
        end = offset_position(text, len(text))
        sep = "" if not text or text.endswith("\n") else "\n"
        return file, text, (*end, *end), sep + "suppress:\n  - " + json.dumps(entry) + "\n"
    op = ({"op": "add", "path": "/suppress/-", "value": entry} if isinstance(data.get("suppress"), list)
          else {"op": "add", "path": "/suppress", "value": [entry]})
    try:
        start, end, repl = edit_for(text, "yaml", (op,), editor)
    except PatchError:
        return None
    return file, text, edit_range(text, start, end), repl


def hover_markdown(rule_ids) -> str | None:
    """The documentation of the rules (``mcplint rule ID --format markdown``), one after another."""
    from ..docs import rule_markdown
    from ..registry import get

    parts = [rule_markdown(m) for m in (get(r) for r in dict.fromkeys(rule_ids)) if m is not None]
    return "\n---\n\n".join(parts) if parts else None


def contains(rng: tuple, line: int, character: int) -> bool:
    l0, c0, l1, c1 = rng
    return (l0, c0) <= (line, character) <= (l1, c1)
