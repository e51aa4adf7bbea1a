"""``mcplint scan --fix`` / ``--diff``: apply the findings' fixes to the files, then lint again.

The front end hands over what the scan found and a :class:`Console` to speak through; the
messages, the diff and the fixed text of stdin go through it, in the order they happen."""

from __future__ import annotations

import difflib
from typing import Protocol


class Console(Protocol):
    def err(self, text: str) -> None:
        """A message on stderr, which may quote input (made inert by the front end)."""
        ...

    def text(self, text: str) -> None:
        """Text for people on stdout that quotes input (a diff), as it is: no newline added."""
        ...

    def raw(self, text: str) -> None:
        """The fixed text itself on stdout (``--fix -``), exactly."""
        ...


def _key(f) -> tuple:
    return (f.origin, f.rule, str(f.pointer), f.profile, f.versions)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def diff_text(fix, secrets=()) -> str:
    """The unified diff of a fix; ``secrets`` (a client configuration's literal ones) masked."""
    from ..textsafe import without_secrets

    a = without_secrets(fix.before, secrets).splitlines(keepends=True)
    b = without_secrets(fix.after, secrets).splitlines(keepends=True)
    import os

    name = os.path.normpath(fix.origin).replace(os.sep, "/")
    old, new = (name, name) if os.path.isabs(name) else (f"a/{name}", f"b/{name}")  # `patch -p1` reads these
    lines = difflib.unified_diff(a, b, fromfile=old, tofile=new)
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def fixed_lines(fixes) -> list[str]:
    """``--fix --show-fixes``: what was fixed, per file and rule (as ruff lists it)."""
    from collections import Counter

    from ..registry import get

    out = []
    for fx in fixes:
        counts: Counter = Counter()
        for c in fx.applied:
            counts[c.rule] += c.count
        if counts and fx.after != fx.before:
            out.append(f"- {fx.origin}:")
            out += [f"    {n} \u00d7 {rule} ({get(rule).name if get(rule) else rule})" for rule, n in sorted(counts.items())]
    return out


def run_fixes(paths, config, result, console: Console, jobs=None, unsafe: bool = False, write: bool = True,
              quiet: bool = False, show_fixes: bool = False):
    """Fix every file of ``result`` that has fixable findings; return the result of linting
    again (``--fix``) or the original result with ``diff_exit`` set (``--diff``). ``show_fixes``:
    list what was fixed, per file and rule."""
    from .apply import fix_text
    from ..engine import lint_document, lint_paths
    from ..load import parse
    from ..model import Source

    roots = tree_roots(paths)
    by_file: dict = {}
    for f in result.findings:
        by_file.setdefault(f.origin, []).append(f)
    fixes = []
    for doc in result.documents:
        findings = by_file.get(doc.source.origin)
        if not findings or doc.source.origin == "<stdin>":
            continue
        if doc.duplicate_keys:
            if any(f.fix and f.fix.patch for f in findings) and not quiet:
                console.err(f"{doc.source.origin}: not fixed: it repeats a key (DOC001); remove the repeat first")
            continue
        src = doc.source
        unchanged = on_disk(src)
        if unchanged is True and _inside(src.origin, roots) is None:
            unchanged = OUTSIDE
        if unchanged is not True:
            if any(f.fix and f.fix.patch for f in findings) and not quiet:
                console.err(f"{src.origin}: not fixed: {unchanged}")
            continue

        def relint(text, src=src):
            return lint_document(parse(Source(src.origin, text, src.fmt)), config)[1]

        fixes.append(fix_text(src.origin, src.fmt, src.text, findings, relint, unsafe=unsafe))
    changed = [fx for fx in fixes if fx.after != fx.before]
    for fx in fixes:
        for rule, title, reason in fx.skipped.values():
            if not quiet:
                console.err(f"{fx.origin}: {rule} fix not applied ({title}): {reason}")
        if not fx.converged and not quiet:
            console.err(f"{fx.origin}: fixes kept producing new fixes after {fx.rounds} rounds; "
                     "stopped (run --fix again, and report this)")
    if not write:
        for fx in changed:
            console.text(diff_text(fx, result.redactions.get(fx.origin, ())))
        n = sum(c.count for fx in changed for c in fx.applied)
        if not quiet:
            console.err(f"Would fix {_plural(n, 'finding')} in {_plural(len(changed), 'file')}"
                     + ("" if unsafe else _unsafe_hint(result)) + ".")
        result.diff_exit = 1 if changed else 0
        return result
    written: set = set()
    for fx in changed:
        _write(fx, roots, written)
    after = lint_paths(paths, config, jobs=jobs) if changed else result
    after.changed_files = len(changed)
    from collections import Counter

    gone = Counter(_key(f) for f in result.findings) - Counter(_key(f) for f in after.findings)
    fixed = sum(gone.values())
    if not quiet:
        console.err(f"Fixed {_plural(fixed, 'finding')} in {_plural(len(changed), 'file')}; "
                 + _remaining(after, unsafe))
        if show_fixes:
            for text in fixed_lines(changed):
                console.err(text)
    return after


def fix_stdin(config, result, console: Console, unsafe: bool = False, write: bool = True, quiet: bool = False,
              show_fixes: bool = False):
    """``--fix -`` / ``--diff -``, as ruff does for stdin: ``--fix`` prints the fixed text on stdout
    (the text as it came when nothing applies, so a pipe never loses it) and returns the result
    of linting that text; ``--diff`` prints the diff and sets ``diff_exit``."""
    import copy

    from .apply import fix_text
    from ..engine import lint_document
    from ..load import parse
    from ..model import Source

    doc = next((d for d in result.documents if d.source.origin == "<stdin>"), None)
    if doc is None:  # it could not be read: the error is reported, there is no text to print
        result.diff_exit = 0
        return result
    src = doc.source
    findings = [f for f in result.findings if f.origin == src.origin]
    fx = None
    if doc.duplicate_keys:
        if any(f.fix and f.fix.patch for f in findings) and not quiet:
            console.err(f"{src.origin}: not fixed: it repeats a key (DOC001); remove the repeat first")
    elif src.fmt in ("json", "yaml"):
        def relint(text):
            return lint_document(parse(Source(src.origin, text, src.fmt)), config)[1]

        fx = fix_text(src.origin, src.fmt, src.text, findings, relint, unsafe=unsafe)
        for rule, title, reason in fx.skipped.values():
            if not quiet:
                console.err(f"{src.origin}: {rule} fix not applied ({title}): {reason}")
    fixed = fx.after if fx is not None else src.text
    n = sum(c.count for c in fx.applied) if fx is not None and fixed != src.text else 0
    if not write:
        if fixed != src.text:
            console.text(diff_text(fx, result.redactions.get(src.origin, ())))
        if not quiet:
            console.err(f"Would fix {_plural(n, 'finding')}" + ("" if unsafe else _unsafe_hint(result)) + ".")
        result.diff_exit = 1 if fixed != src.text else 0
        return result
    console.raw(fixed)
    after = result
    if fixed != src.text:
        new = parse(Source(src.origin, fixed, src.fmt))
        after = copy.copy(result)
        after.documents = [new]
        after.findings = lint_document(new, config)[1]
    after.changed_files = int(fixed != src.text)
    if not quiet:
        console.err(f"Fixed {_plural(n, 'finding')}; " + _remaining(after, unsafe))
        if show_fixes and fx is not None:
            for text in fixed_lines([fx]):
                console.err(text)
    return after


def on_disk(src):
    """True when the file holds exactly the text that was linted, else why it is not fixed: a
    Python server's tools are generated by its code (mcplint never edits Python), and a file
    that changed since it was read is left to the next run."""
    if getattr(src, "fmt", None) not in ("json", "yaml") or src.origin.lower().endswith(".py"):
        return "its tools come from Python code, which --fix does not edit (fix the code)"
    try:
        with open(src.origin, encoding="utf-8", newline="") as fh:
            now = fh.read()
    except (OSError, UnicodeDecodeError) as e:
        return f"cannot read it again ({e})"
    return True if now == src.text else "it changed since it was read: run again"


def _remaining(after, unsafe: bool) -> str:
    """The end of the "Fixed ..." line: how many findings remain (and, without --unsafe-fixes,
    how many more fixes it would apply)."""
    n = len(after.findings)
    return f"{n} remain{'s' * (n == 1)}" + ("" if unsafe else _unsafe_hint(after)) + "."


def _unsafe_hint(result) -> str:
    from .safety import fixable

    n = sum(1 for f in result.findings if fixable(f, unsafe=True) and not fixable(f))
    return f" ({_plural(n, 'more fix')} with --unsafe-fixes)".replace("more fixs", "more fixes") if n else ""


OUTSIDE = ("it is a symbolic link (or lies under one) to a file outside the scanned tree, which --fix does "
           "not write (scan the file it leads to, to fix that)")


def tree_roots(paths) -> list[str]:
    """The real paths ``--fix`` may write under: each directory scanned, and the directory of
    each file named (a file reached through a symbolic link out of these is not written)."""
    import os

    roots = []
    for p in paths:
        if p == "-":
            continue
        p = os.fspath(p)
        roots.append(os.path.realpath(p if os.path.isdir(p) else (os.path.dirname(p) or ".")))
    return roots


def _inside(origin: str, roots) -> str | None:
    """The real path of ``origin`` when it lies under one of ``roots``, else None."""
    import os

    real = os.path.realpath(origin)
    for root in roots:
        if os.path.commonpath([real, root]) == root:
            return real
    return None


def _write(fx, roots, written: set) -> None:
    """Write the fixed text exactly (no newline translation: CRLF stays CRLF), atomically, to the
    real file (a symbolic link inside the tree stays a link), checked again just before; a file
    reached twice (itself and a link to it) is written once."""
    from ..atomicio import write_atomic
    from ..errors import InputError

    real = _inside(fx.origin, roots)
    if real is None:
        raise InputError(f"not fixed: {OUTSIDE}", origin=fx.origin)
    if real in written:
        return
    written.add(real)
    try:
        write_atomic(real, fx.after, newline="")
    except OSError as e:
        raise InputError(f"cannot write the fixed file: {e.strerror or e}", origin=fx.origin) from None
