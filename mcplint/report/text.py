"""``--format text``: for people. Grouped by file and tool, errors first, with a short
code frame and the fix; repeats of one rule in one tool fold into one line with a
count and their places unless ``--verbose``; information (which never fails a run unless
``--fail-on info``) is one line per rule and file, with its count, unless ``--show-info`` or
``--verbose``; a long message or fix wraps. With decoder profiles, a closing table says per
profile how many tools it accepts as-is, weakens, rejects or leaves out. Colour (through rich)
only on a terminal and without ``NO_COLOR``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Iterator

from ..model import Severity
from ..textsafe import inline, without_secrets

STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
FOLD_AFTER = 3  # findings of one rule in one tool shown before folding the rest
PROFILE_FOLD_AFTER = 1  # profile findings repeat per profile: show one in full, the rest on one line


FRAME_WIDTH = 160  # characters of a source line shown in a code frame
FRAME_BEFORE = 60  # of them, before the finding's column when the line is longer


def _window(line: str, start: int) -> str:
    """``FRAME_WIDTH`` characters of ``line`` from ``start``, with ``...`` where it is cut. Cut
    before anything else is done to it: on a minified file one line is the whole file, and
    copying it for each finding would make the report grow with the square of the file."""
    text = line[start:start + FRAME_WIDTH + 1].rstrip("\r").replace("\t", " ")  # a tab is one column
    if len(text) > FRAME_WIDTH:
        text = text[:FRAME_WIDTH - 3] + "..."
    return ("..." + text[3:]) if start else text


def _frame(doc_lines: list[str], f, context: int) -> list[list]:
    if not (f.span or f.source) or not doc_lines:
        return []
    out = []
    first = max(1, f.line - context)
    last = min(len(doc_lines), f.line + context)
    width = len(str(last))
    col = f.column - 1
    # on a long line, a window around the column (the caret moves with it); the lines around get the same
    start = max(0, col - FRAME_BEFORE) if len(doc_lines[f.line - 1]) > FRAME_WIDTH and col >= FRAME_WIDTH - 3 else 0
    for n in range(first, last + 1):
        line = _window(doc_lines[n - 1], start)
        text = inline(line)  # the input's control characters shown as escapes (the caret moves past them)
        mark = ">" if n == f.line else " "
        out.append([(f"      {mark} {n:>{width}} | ", "dim"), (text, "")])
        if n == f.line:
            at = col - start if text is line else len(inline(line[:max(0, col - start)]))
            out.append([(f"        {'':>{width}} | " + " " * at + "^", "bold red")])
    return out


class _DocLines:
    """The lines of each input, split when a code frame first needs them and only for the file
    being reported (findings come grouped by file): holding every input's lines at once took
    more memory than the findings (800,000 line strings for 30 MB of JSON)."""

    def __init__(self, result):
        self.docs = {d.source.origin: d for d in result.documents}
        self.redactions = result.redactions
        self.origin, self.lines = None, []

    def get(self, origin: str, default: list) -> list:
        if origin != self.origin:
            doc = self.docs.get(origin)
            self.origin = origin
            # (without a byte-order mark: columns count from after it, and the caret with them)
            text = doc.source.text if doc is not None else None
            if text is not None:  # a client configuration's literal secrets: never shown
                text = without_secrets(text, self.redactions.get(origin, ()))
            self.lines = text.lstrip("\ufeff").rstrip("\n").split("\n") if text is not None else default
        return self.lines


def _code_lines_of(result) -> dict:
    """The text of the code Python servers' schemas were generated from, by file."""
    return {file: text.rstrip("\n").split("\n") for d in result.documents
            if d.code is not None for file, text in d.code.texts.items()}


def _place(f, origin: str) -> str:
    """line:column, with the file when the finding is in another file than the input (a model
    imported from a module of its own)."""
    return f"{f.file + ':' if f.file != origin else ''}{f.line}:{f.column}"


def _in_tool(f) -> tuple:
    """A finding's order in its tool's list: errors first, then by line, column and rule (what
    ``(-f.severity, f.line, f.column, f.rule)`` gives, without the two properties)."""
    s = f.source
    if s is not None:
        return -f.severity, s.line, s.column, f.rule
    s = f.span
    return (-f.severity, s.line, s.col, f.rule) if s is not None else (-f.severity, 1, 1, f.rule)


def _served_code(findings) -> tuple | None:
    """What a tool's findings say of its code, whatever the tool is called: the same function served
    under two names (a fastmcp server mounted by another, both files scanned) gives the same, and so
    do two tools whose every finding is on one model they share. None when some finding is not
    placed on code, or is about the tool itself (its name, its description)."""
    out = []
    for f in findings:
        s = f.source
        if s is None:
            return None
        steps = tuple(f.pointer)
        at = next((i for i, step in enumerate(steps) if step in ("inputSchema", "outputSchema")), None)
        if at is None:
            return None  # about the tool itself (its name, its description): the names differ
        out.append((f.rule, f.profile, f.versions, s.file, s.line, s.column, steps[at:]))
    return tuple(sorted(out, key=repr))


def build(result, options) -> list[list]:
    """The report as lines of (text, style) segments."""
    return list(iter_lines(result, options))


def iter_lines(result, options) -> Iterator[list]:
    """The report's lines of (text, style) segments, one after another (a report of 100,000
    findings is not held as segments all at once)."""
    texts = _DocLines(result)
    code = _code_lines_of(result) if any(f.source for f in result.findings) else {}
    by_file: dict[str, list] = defaultdict(list)
    for f in result.findings:
        by_file[f.origin].append(f)
    from ..autofix.safety import fixable

    served: dict = {}  # a tool's findings on its code -> the file and tool they were first shown for
    fold_info = not (options.verbose or getattr(options, "show_info", False) or options.show_fixes)
    for origin, findings in by_file.items():
        yield [(origin, "bold underline")]
        infos = [f for f in findings if f.severity is Severity.INFO] if fold_info else []
        if infos:
            findings = [f for f in findings if f.severity is not Severity.INFO]
        fixes_shown: dict = {}  # a long fix's words -> the tool it was first shown for, in this file
        infos_shown: dict = {}  # (rule, message, versions) of an information -> the tool it was first shown for
        by_tool: dict = defaultdict(list)
        for f in findings:
            by_tool[f.tool].append(f)
        for tool, tfs in by_tool.items():
            yield [("  ", ""), ("tool " + tool if tool is not None else "(document)", "bold")]
            same = _served_code(tfs) if code and not options.verbose else None
            if same is not None and served.get(same, (origin, tool))[:2] != (origin, tool):
                there, first = served[same]
                where = "above" if there == origin else f"in {there}"
                yield [(f"    the same {len(tfs)} finding(s), on the same code, as tool {first} {where} "
                        "(--verbose lists them)", "dim")]
                continue
            if same is not None:
                served.setdefault(same, (origin, tool))
            tfs.sort(key=_in_tool)
            shown: dict = defaultdict(int)
            folded: dict = defaultdict(list)
            previous = None
            for f in tfs:
                key = (f.rule, f.profile)
                limit = PROFILE_FOLD_AFTER if f.profile else FOLD_AFTER
                if not options.verbose and shown[key] >= limit:
                    folded[key].append(f)
                    continue
                shown[key] += 1
                same_place = previous is not None and previous.pointer == f.pointer
                sev = f.severity.label
                extra = []
                if f.profile:
                    extra.append(f"profile {f.profile}")
                if f.protocol_version:
                    extra.append(f.protocol_version)
                if f.severity is Severity.INFO and not options.verbose and tool is not None:
                    repeated = _repeated_info(f, tool, origin, infos_shown, extra)
                    if repeated is not None:
                        yield repeated
                        previous = f
                        continue
                yield from _wrap([
                    (f"    {_place(f, origin)}", "dim"), ("  ", ""), (f"{sev:<7}", STYLE[sev]), (" ", ""),
                    (f"{f.rule}", "bold"), (f" {f.name}", "dim"), ("  ", ""),
                    ("[*] " if fixable(f, options.unsafe_fixes) else "", "green"), (f.message, ""),
                    (_tail(extra, f), "dim"),
                ])
                if not same_place:  # several profiles at one place: one pointer and code frame
                    yield from _place_lines(f, code.get(f.file, []) if f.source else texts.get(origin, []), options)
                if f.fix:
                    yield from _fix_lines(f, previous if same_place else None, tool, fixes_shown, options)
                previous = f
            yield from _fold_lines(folded, tool, origin)
        yield from _folded_info(infos, origin)
        yield [("", "")]
    if options.quiet:
        return
    yield from _profile_summary(result)
    yield _summary(result)
    hint = fix_hint(result, options.unsafe_fixes)
    if hint:
        yield [(hint, "dim")]


def _repeated_info(f, tool, origin: str, infos_shown: dict, extra: list) -> list | None:
    """The one line for an information already shown for another tool of the file (every tool of a
    zod server carries the SDK's $schema), its words and code frame not repeated; None the first
    time (``infos_shown``: (rule, message, version) -> the tool it was first shown for)."""
    first = infos_shown.setdefault((f.rule, f.message, f.protocol_version), tool)
    if first == tool:
        return None
    sev = f.severity.label
    return [(f"    {_place(f, origin)}", "dim"), ("  ", ""), (f"{sev:<7}", STYLE[sev]), (" ", ""),
            (f"{f.rule}", "bold"), (f" {f.name}", "dim"), ("  ", ""),
            (f"{str(f.pointer[-1]) + ': ' if len(f.pointer) else ''}the same as for tool {first} "
             "above (--verbose repeats it)", "dim"),
            (_tail(extra, f), "dim")]


def _place_lines(f, lines, options) -> Iterator[list]:
    """Where a finding is: its pointer, and the code frame from ``lines`` (the file's text)."""
    if str(f.pointer):
        yield ([("      at ", "dim"), (str(f.pointer), "magenta")]
               + ([("  (placed by the tool's name in the code: best effort)", "dim")]
                  if f.source and f.source.best_effort else []))
    yield from _frame(lines, f, options.context_lines)


def _fix_lines(f, before, tool, fixes_shown: dict, options) -> Iterator[list]:
    """The lines of a finding's fix: all of it with --show-fixes, else its title, once for the
    findings at one place (``before``: the finding shown just before at the same place) and said
    once per file when it is long (``fixes_shown``: its words -> the tool it was first shown for)."""
    if options.show_fixes:
        from . import fix_lines

        for k, text in enumerate(fix_lines(f)):
            yield [("      " + text, "green" if k == 0 else "dim")]
    elif not (before is not None and before.fix and before.fix.title == f.fix.title):
        first = fixes_shown.get(f.fix.title) if len(f.fix.title) > LONG_FIX else None
        if first is not None and first != tool:  # (53 tools of one server, one fix in its words)
            yield [("      fix: ", "green"), (f"as for tool {first} above", "dim")]
        else:
            fixes_shown.setdefault(f.fix.title, tool)
            yield from _wrap([("      fix: ", "green"), (f.fix.title, "")], indent=11)


def _fold_lines(folded: dict, tool, origin: str) -> Iterator[list]:
    """One line for each (rule, profile) whose findings past the fold limit were folded: how many,
    of which severities, and the first places."""
    for (rule, profile), rest in folded.items():
        who = f" for profile {profile}" if profile else ""
        places: dict = {}  # the first 6 distinct places, and whether there are more
        for f in rest:
            places[f"{_place(f, origin)} {_short(f.pointer)}"] = None
            if len(places) > 6:
                break
        where = ", ".join(list(places)[:6]) + (", ..." if len(places) > 6 else "")
        here = "in this tool" if tool is not None else "here"
        kinds: dict = {}  # severity label -> how many (said when the fold holds more than one)
        for f in rest:
            kinds[f.severity] = kinds.get(f.severity, 0) + 1
        mixed = "" if len(kinds) < 2 else " (" + ", ".join(
            f"{n} {sev.label}{'s' if n != 1 and sev.label != 'info' else ''}"
            for sev, n in sorted(kinds.items(), reverse=True)) + ")"
        yield from _wrap([(f"    ... and {len(rest)} more {rule}{who}{mixed} {here}: ", "dim"),
                          (where, "magenta"), (" (--verbose lists them)", "dim")], breaks=r"(, | (?=\())")


def _tail(extra: list, f) -> str:
    """What closes a finding's line: ``  [profile P, versions; servers a, b]`` (the servers of a
    ``probe --from`` it holds for, when several), or ""."""
    from . import servers_words

    words = ", ".join(extra)
    if f.servers:
        words += ("; " if words else "") + servers_words(f)
    return f"  [{words}]" if words else ""


LONG_FIX = 120  # characters: a fix this long, shown once in a file, is referred to after that
WRAP_AT = 120  # characters: a finding's or a fix's line longer than this goes on over more lines


def _wrap(segments: list, indent: int = 6, width: int = WRAP_AT, breaks: str = r"( +)") -> list[list]:
    """One report line of (text, style) segments as lines of at most ``width`` characters (a
    piece longer than that stays whole), broken only at what ``breaks`` matches (between words;
    ``r"(, )"``: between the items of a list, each kept whole), the break's spaces dropped;
    every line after the first starts with ``indent`` spaces. A line that fits is returned as it is."""
    if sum(len(t) for t, _ in segments) <= width:
        return [segments]
    import re

    lines: list[list] = [[]]
    used = 0
    for text, style in segments:
        for i, token in enumerate(re.split(breaks, text)):
            if not token:
                continue
            if i % 2:  # where a line may break
                if used > indent or len(lines) == 1:  # (nothing of it at the start of a continuation line)
                    lines[-1].append((token, style))
                    used += len(token)
                continue
            if used + len(token) > width and used > indent:
                while lines[-1] and not lines[-1][-1][0].strip():  # no spaces at the end of a line either
                    lines[-1].pop()
                if lines[-1]:
                    last, last_style = lines[-1][-1]
                    lines[-1][-1] = (last.rstrip(" "), last_style)
                lines.append([(" " * indent, "")])
                used = indent
            lines[-1].append((token, style))
            used += len(token)
    return lines


def _folded_info(infos: list, origin: str) -> Iterator[list]:
    """A file's information, one line per rule with how many there are and on how many tools:
    it asks nothing of the author (it never fails a run unless ``--fail-on info``), so it is not
    listed one line per occurrence; ``--show-info`` (or ``--verbose``) lists it."""
    if not infos:
        return
    from ..registry import get

    by_rule: dict = defaultdict(list)
    for f in infos:
        by_rule[f.rule].append(f)
    yield [("  information", "bold"), (f" ({len(infos)}; never fails the run; --show-info lists each):", "dim")]
    for rule, fs in sorted(by_rule.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        meta = get(rule)
        about = (meta.summary if meta is not None and meta.summary else fs[0].message)
        tools = {f.tool for f in fs if f.tool is not None}
        if len(fs) == 1:
            f = fs[0]
            where = f"{'tool ' + f.tool + ', ' if f.tool is not None else ''}{_place(f, origin)}"
        else:
            where = f"{len(fs)} findings" + (f" on {len(tools)} tool{'s' * (len(tools) != 1)}" if tools else "")
        yield from _wrap([("    ", ""), ("info   ", STYLE["info"]), (" ", ""), (rule, "bold"), (f" {fs[0].name}", "dim"),
                          ("  ", ""), (f"{where}: ", "dim"), (about, "")])


def fix_hint(result, unsafe_fixes: bool = False) -> str:
    """How many findings ``--fix`` would fix, and how many more ``--unsafe-fixes`` would (with
    ``unsafe_fixes``, given without ``--fix``: how many ``--fix --unsafe-fixes`` would)."""
    from ..autofix.safety import fixable

    safe = sum(1 for f in result.findings if fixable(f))
    unsafe = sum(1 for f in result.findings if fixable(f, unsafe=True)) - safe
    if not safe and not unsafe:
        return ""
    if unsafe_fixes:
        return f"[*] {safe + unsafe} fixable with --fix --unsafe-fixes."
    if not safe:  # (as ruff words it: no fix for --fix alone, these with --unsafe-fixes)
        return f"{unsafe} unsafe fix{'es' * (unsafe != 1)} available with --fix --unsafe-fixes."
    text = f"[*] {safe} fixable with --fix"
    if unsafe:
        text += f" ({unsafe} more with --unsafe-fixes)"
    return text + "."


def _short(pointer) -> str:
    """The last two steps of a pointer: enough to recognise the place on one line."""
    parts = [str(p) for p in pointer]
    return "/".join(parts[-2:]) if parts else "/"


def _profile_summary(result) -> list[list]:
    """Per profile: how many tools it accepts as-is, weakens, rejects, leaves out, or loses with
    the server's whole tools/list (named only when a profile loses one)."""
    from . import VERDICTS, profile_matrix, request_limits

    matrix = profile_matrix(result) if result.tools else None  # no tool read: nothing to tally
    if not matrix:
        return []
    words = {"accepts": ("accepted as-is", "green"), "weakens": ("weakened", "yellow"),
             "rejects": ("rejected", "bold red"), "drops": ("left out", "bold red"),
             "loses-list": ("lost with the whole list", "bold red")}
    width = max(len(p) for p in matrix)
    limits = request_limits(result)
    out: list[list] = [[("Decoder profiles", "bold"), (f" ({result.tools} tool{'s' * (result.tools != 1)}):", "")]]
    for profile, row in matrix.items():
        counts = {v: sum(1 for x in row.values() if x == v) for v in VERDICTS}
        segs: list = [(f"  {profile:<{width}}  ", "bold")]
        shown = [v for v in VERDICTS if v != "loses-list" or counts[v]]  # (a lost list is rare: said when it happens)
        for k, v in enumerate(shown):
            label, style = words[v]
            segs.append((f"{counts[v]} {label}", style if counts[v] else "dim"))
            segs.append((", " if k < len(shown) - 1 else "", ""))
        n = limits.get(profile, 0)
        if n:  # the tools pass one by one, the request carrying them together does not
            segs.append((f"; the request exceeds {n} limit{'s' * (n != 1)} (DEC009)", "bold red"))
        out.append(segs)
    out.append([("", "")])
    return out


def _summary(result) -> list:
    e, w, i = (result.count(s) for s in (Severity.ERROR, Severity.WARNING, Severity.INFO))
    from . import interpreter_sentence, scope, unread, version_clause

    files = scope(result) + version_clause(result)
    tail = [(" " + unread(result), "bold red")] if result.errors else []
    from . import shared_sentence

    if shared_sentence(result):  # probe --from: why a server may have no heading of its own
        tail.append((" " + shared_sentence(result), ""))
    if interpreter_sentence(result):  # scan of a Python server: which interpreter imported it, when none was named
        tail.append((" " + interpreter_sentence(result), ""))
    if not result.findings:
        return [("No findings", "bold" if result.errors else "bold green"), (f" in {files}.", "")] + tail
    parts = []
    for n, label, style in ((e, "error", "bold red"), (w, "warning", "yellow"), (i, "info", "cyan")):
        if n:
            parts.append((f"{n} {label}{'s' * (n != 1 and label != 'info')}", style))
    segs: list = [("Found ", "")]
    for k, p in enumerate(parts):
        segs.append(p)
        segs.append((", " if k < len(parts) - 1 else "", ""))
    segs.append((f" in {files}.", ""))
    return segs + tail


CHUNK_LINES = 2000  # lines per piece of a report written as it is made


def render_chunks(result, options) -> Iterator[str]:
    """The report in pieces of ``CHUNK_LINES`` lines, each written out before the next is made
    (what ``"".join`` of them gives is :func:`render`'s text)."""
    if not options.color:
        batch: list = []
        for line in iter_lines(result, options):
            text = "".join([t for t, _ in line])
            if inline(text) is not text:  # input to make inert (see _inert); ordinary lines are left as they are
                text = inline("".join([inline(t) for t, _ in line]))
            batch.append(text)
            if len(batch) >= CHUNK_LINES:
                batch.append("")
                yield "\n".join(batch)
                batch = []
        if batch:
            batch.append("")
            yield "\n".join(batch)
        return
    from io import StringIO

    from rich.console import Console
    from rich.text import Text

    console = Console(file=StringIO(), force_terminal=True, color_system="standard", width=10_000,
                      highlight=False, soft_wrap=True)
    n = 0
    for line in _inert(iter_lines(result, options)):
        console.print(Text.assemble(*[(t, s) for t, s in line]))
        n += 1
        if n >= CHUNK_LINES:
            yield console.file.getvalue()
            console.file, n = StringIO(), 0
    if n:
        yield console.file.getvalue()


def _inert(lines) -> Iterator[list]:
    """The report's lines with every segment made inert (:func:`mcplint.textsafe.inline`): the input
    they quote (a file path, a tool's name, a message, a pointer, a line of the file) cannot start
    a line, move the terminal's cursor, style it, or be read as a CI command. Rich is given
    ``Text``, never markup, so ``[bold]`` in a tool's name is printed as written."""
    for line in lines:
        joined = "".join([t for t, _ in line])
        if inline(joined) is joined:  # (the line as a whole needs nothing: the common case, checked once)
            yield line
            continue
        segments = [(inline(t), s) for t, s in line]
        joined = "".join([t for t, _ in segments])
        safe = inline(joined)  # what two segments make together (a leading "::" after blanks, a "##[")
        yield segments if safe is joined else [(safe, "")]


def render(result, options) -> str:
    return "".join(render_chunks(result, options))
