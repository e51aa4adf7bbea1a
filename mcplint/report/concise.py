"""``--output-format concise``: one ``path:line:col: RULE message`` line per finding, the form
editors, terminals and ``grep`` read (as ruff's and compilers' one-line diagnostics). A ``[*]``
after the rule ID marks a fix that ``--fix`` applies (with ``--unsafe-fixes``, unsafe ones too); the last line counts the findings and
the fixes ``--fix`` (and ``--unsafe-fixes``) would apply (left out with ``--quiet``). Information
is one line per file and rule, at its first place, with the count, unless ``--show-info``."""

from __future__ import annotations

from ..model import Severity
from ..textsafe import inline


def line(f, unsafe: bool = False) -> str:
    from ..autofix.safety import fixable

    mark = " [*]" if fixable(f, unsafe) else ""
    from . import servers_words

    extra = [x for x in (f.profile and f"profile {f.profile}", f.protocol_version) if x]
    words = "; ".join(x for x in (", ".join(extra), servers_words(f)) if x)  # (servers: probe --from, when several)
    tail = f" [{words}]" if words else ""
    message = " ".join(f.message.split())  # one line, whatever the message holds
    # (inline: the input's control characters shown as escapes, and no line it begins run as a CI command)
    return inline(f"{f.file}:{f.line}:{f.column}: {f.rule}{mark} {message}{tail}")  # f.file: the Python code, if any


def render(result, options) -> str:
    from . import fix_lines

    from . import folded_words, split_info

    shown, folded = split_info(result.findings, options)
    out = []
    for f in sorted(shown, key=lambda f: f.sort_key()):
        out.append(line(f, options.unsafe_fixes))
        if options.show_fixes:
            out += ["    " + inline(text) for text in fix_lines(f)]
    for group in sorted(folded, key=lambda g: g[0].sort_key()):  # information: one line per file and rule
        f = group[0]
        out.append(inline(f"{f.file}:{f.line}:{f.column}: {f.rule} {folded_words(group)}"))
    if not options.quiet:
        e, w, i = (result.count(s) for s in (Severity.ERROR, Severity.WARNING, Severity.INFO))
        n = len(result.findings)
        from . import scope

        files = scope(result)
        summary = f"Found {n} finding{'s' * (n != 1)} ({e} error{'s' * (e != 1)}, {w} warning{'s' * (w != 1)}, " \
                  f"{i} info) in {files}." if n else f"No findings in {files}."
        from .text import fix_hint

        from . import shared_sentence

        if shared_sentence(result):
            summary += f" {shared_sentence(result)}"
        hint = fix_hint(result, options.unsafe_fixes)  # as the text format's: the fixes --fix applies, and the unsafe ones
        if hint:
            summary += f" {hint}"
        out.append(summary)
    return "\n".join(out) + ("\n" if out else "")
