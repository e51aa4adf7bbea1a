"""Text of input origin made inert where it is printed, one function per output context.

mcplint prints what others wrote (a tool's name and description, a property key inside a
pointer, a file path, a server's stderr, a configuration value) into CI logs, job summaries,
SARIF files and terminals. Each of those reads some text as commands:

* a CI log (GitHub Actions) runs a line that starts with ``::`` (after leading blanks) as a
  workflow command, and the legacy ``##[command]`` form anywhere in a line
  (https://docs.github.com/actions/reference/workflow-commands-for-github-actions);
* a terminal runs escape sequences: OSC 8 hyperlinks, OSC 0 window titles, ``ESC[2J``
  (clear), ``ESC[8m`` (hidden text), C1 controls such as U+009B (CSI);
* a Markdown renderer makes links, images and HTML of ``[text](url)``, ``<img ...>`` and
  bare URLs.

The functions here are idempotent (escaping escaped text changes nothing), so a boundary can
apply them to a whole line of which mcplint wrote part. They leave ordinary text unchanged.
"""

from __future__ import annotations

import re

# Control characters (C0 but the tab, DEL, C1), the Unicode line and paragraph separators
# (some viewers break lines there) and the bidirectional overrides and isolates (which reorder
# what a terminal or a log viewer shows: "Trojan Source", CVE-2021-42574).
_UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\x1b": "\\x1b"}
_LEGACY = "##["  # GitHub's legacy workflow command, recognised anywhere in a line
_LEGACY_SAFE = "#\\x23["


def _escape(match) -> str:
    ch = match.group()
    named = _NAMED.get(ch)
    if named is not None:
        return named
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def inline(text, line_start: bool = True) -> str:
    """One piece of input inside a line of output: control characters, line breaks and
    bidirectional controls shown as escapes (``\\n``, ``\\x1b``, ``\\u202e``), so the input
    never starts a line, moves the cursor or styles the terminal; ``##[`` broken (``#\\x23[``);
    with ``line_start`` (the piece may begin a line), a leading ``::`` escaped (``\\x3a:``).
    Ordinary text is returned unchanged."""
    s = text if type(text) is str else ("" if text is None else str(text))
    if not (s.isascii() and s.isprintable()) and _UNSAFE.search(s) is not None:
        s = _UNSAFE.sub(_escape, s)
    if _LEGACY in s:
        s = s.replace(_LEGACY, _LEGACY_SAFE)
    if not line_start or not (s.startswith("::") or s[:1].isspace()):
        return s
    stripped = s.lstrip()
    if stripped.startswith("::"):
        s = s[: len(s) - len(stripped)] + "\\x3a" + stripped[1:]
    return s


def lines(text) -> str:
    """Text of several lines that mcplint composed and that quotes input (an error message
    with the last lines of a server's stderr, a diff of a file): the line breaks (LF, CRLF) are
    kept, and each line is made safe as :func:`inline` makes one piece."""
    s = "" if text is None else str(text)
    if "\n" not in s:
        return inline(s)
    return "\n".join(inline(line[:-1]) + "\r" if line.endswith("\r") else inline(line)  # (CRLF kept)
                     for line in s.split("\n"))


def github_data(text) -> str:
    """The message of a workflow command (after ``::``): GitHub's escaping of ``%``, CR and LF,
    so the command stays one line (the runner decodes them back)."""
    return str(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_property(text) -> str:
    """A property value of a workflow command (``file=``, ``title=``): :func:`github_data`'s
    escaping, and ``:`` and ``,``, which end a value."""
    return github_data(text).replace(":", "%3A").replace(",", "%2C")


def _longest_run(s: str, ch: str) -> int:
    best = run = 0
    for c in s:
        run = run + 1 if c == ch else 0
        best = max(best, run)
    return best


def md_code(text, table: bool = True) -> str:
    """Input as a Markdown code span, whose content is never markup: fenced by one backtick
    more than the longest run of backticks inside it (so the input cannot close it), with
    control characters shown as escapes; ``table``: ``|`` escaped, which GitHub's tables read
    as a cell's end even inside a code span. "" for no text."""
    s = inline(text, line_start=False)
    if table:
        s = s.replace("|", "\\|")
    if not s:
        return ""
    n = _longest_run(s, "`") if "`" in s else 0
    if not n:
        return f"`{s}`"
    fence = "`" * (n + 1)
    return f"{fence} {s} {fence}"


_AUTOLINK = re.compile(r"(?i)\b(https?|ftp):(?=//)|\b(www)\.")


def md_text(text) -> str:
    """Input as Markdown text in a table cell or a list item: no HTML (``<``, ``>`` written as
    entities), no link or image (``](`` broken, bare URLs and ``www.`` not autolinked), pipes
    and backslashes escaped, control characters and line breaks shown as escapes."""
    s = inline(text, line_start=False)
    s = (s.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")
         .replace("](", "]\\("))
    if ":" in s or "www" in s.lower():
        s = _AUTOLINK.sub(lambda m: f"{m.group(1)}:\\" if m.group(1) else f"{m.group(2)}\\.", s)
    return _paired_backticks(s) if "`" in s else s


_BACKTICKS = re.compile("`+")


def _paired_backticks(s: str) -> str:
    """``s`` with every run of backticks that does not close within it escaped (``\\```): a code
    span the text opens ends inside it, so it cannot pair with a backtick of the line around it
    and turn what follows (mcplint's own code spans, and the input they hold) into markup.
    Runs are paired as CommonMark pairs them: from the left, a run opens a span that the next
    run of the same length closes."""
    runs = [m.span() for m in _BACKTICKS.finditer(s)]
    paired: set = set()
    i = 0
    while i < len(runs):
        n = runs[i][1] - runs[i][0]
        j = next((k for k in range(i + 1, len(runs)) if runs[k][1] - runs[k][0] == n), None)
        if j is None:
            i += 1
            continue
        paired.update((i, j))
        i = j + 1
    if len(paired) == len(runs):
        return s
    out, at = [], 0
    for k, (a, b) in enumerate(runs):
        out.append(s[at:a])
        out.append(s[a:b] if k in paired else "\\`" * (b - a))
        at = b
    out.append(s[at:])
    return "".join(out)


_JSON_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def json_text(text: str) -> str:
    """Serialized JSON (``ensure_ascii=False``, which writes only C0 controls as escapes) made
    safe to print in a CI log or a terminal, with the same data: DEL, C1, line separators and
    bidirectional controls written as ``\\uXXXX``, and the ``#`` of ``##[`` as ``\\u0023`` (in
    JSON a ``#`` can only be inside a string)."""
    if _JSON_UNSAFE.search(text) is not None:
        text = _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    if _LEGACY in text:
        text = text.replace(_LEGACY, "#\\u0023[")
    return text


def without_secrets(text: str, secrets) -> str:
    """``text`` with each of ``secrets`` (values a client configuration writes out literally, under
    a secret's name) replaced by asterisks, wherever it shows: a code frame, a diff. A value shorter
    than four characters is left alone: it is no secret, and masking it would hide the same letters
    everywhere else."""
    for secret in secrets:
        if len(secret) >= 4:
            text = text.replace(secret, "*" * min(len(secret), 8))
    return text
