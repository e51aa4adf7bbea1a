"""Stage 1, load: source text -> :class:`Document` (data plus a source map).

Anything that cannot be read is an :class:`InputError` with a location; nothing is
ever silently skipped. A file given by name is read whatever its extension; a
directory contributes its ``*.json``, ``*.yaml`` and ``*.yml`` files, recursively (and the MCP
configuration in ``.vscode/``, ``.cursor/``, ``.gemini/`` and ``.codex/``; other hidden folders are skipped).
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from pathlib import Path
from typing import Iterable

from .errors import InputError
from .model import Document, Pointer, Source
from .jsonparse import parse_json_indexed
from .sourcemap import JsonMapper, json_duplicates
from .yamlmap import Positions, YamlTooLarge, parse_yaml

SUFFIXES = {".json": "json", ".yaml": "yaml", ".yml": "yaml"}
# Never descended into when a directory is walked (as ruff excludes them); name such a path explicitly to scan it.
SKIP_DIRS = {"node_modules", "__pycache__", ".venv", "venv", "build", "dist", "site-packages", "__pypackages__"}
# Well-known files that are never tool definitions, skipped when a directory is walked (a server's
# repository holds several): package manifests and lock files, compiler and tool settings.
# A file named on the command line is always read; the `exclude` setting adds patterns.
DEFAULT_EXCLUDE = (
    "package.json", "package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "pnpm-workspace.yaml",
    "composer.json", "deno.json", "lerna.json", "nx.json", "turbo.json", "biome.json", "renovate.json",
    "tsconfig.json", "tsconfig.*.json", "jsconfig.json", ".eslintrc.json", ".prettierrc.json",
    "docker-compose.yml", "docker-compose.yaml", "compose.yml", "compose.yaml", "mkdocs.yml", "mkdocs.yaml",
    ".pre-commit-config.yaml", ".pre-commit-hooks.yaml", ".readthedocs.yaml", ".readthedocs.yml",
    "codecov.yml", ".codecov.yml", "environment.yml", ".mcplint.yaml", ".mcplint.yml",
)
# Hidden folders are not walked, except where MCP clients keep their configuration: only that
# file is taken from them (mcplint.clientconfig tells the client by the name and the shape).
CLIENT_DIRS = {".vscode": "mcp.json", ".cursor": "mcp.json", ".gemini": "settings.json", ".codex": "config.toml"}


def excluded(rel: str, patterns) -> bool:
    """Does a path found in a directory walk (relative to the directory, ``/``-separated)
    match an exclude pattern? A pattern matches the whole relative path, any trailing part
    of it, or the file name (``fnmatch`` syntax)."""
    import fnmatch

    name = rel.rsplit("/", 1)[-1]
    return any(fnmatch.fnmatch(name, p) or fnmatch.fnmatch(rel, p) or fnmatch.fnmatch(rel, "*/" + p)
               for p in patterns)


_PY_TARGET = re.compile(r"(?s)(.+\.py)(?::([A-Za-z_][A-Za-z0-9_.]*(?:\(.*)?))?", re.I)


def py_target(path: str) -> tuple[str, str | None] | None:
    """``(file, object or None)`` for a Python server argument: ``server.py``, or
    ``server.py:create_server`` naming a server object or factory in it (the ``file:object``
    form of `fastmcp run` and `mcp dev`), or ``server.py:create_server(local_tz="UTC")``, a
    factory with literal arguments; None for any other path."""
    m = _PY_TARGET.fullmatch(path)
    return (m.group(1), m.group(2)) if m else None


_SERVERISH = re.compile(r"(^|[/\\._-])(server|mcp)\.py$")  # (the names the pre-commit hook takes)


def expand_paths(paths: Iterable[str], exclude: Iterable[str] = (), errors: list | None = None) -> list[str]:
    """Turn arguments into a sorted list of files; ``-`` stands for stdin. Walking a
    directory skips :data:`DEFAULT_EXCLUDE` and the ``exclude`` patterns; a file named
    explicitly is always taken. A subdirectory that cannot be listed is an error: raised, or
    added to ``errors`` when given (the walk then goes on)."""
    patterns = (*DEFAULT_EXCLUDE, *exclude)
    out: list[str] = []
    for p in paths:
        if p == "-":
            out.append(p)
            continue
        target = py_target(p)
        path = Path(target[0] if target else p)
        if path.is_dir():
            found, skipped, unreadable, modules = [], 0, [], []
            for root, dirs, files in os.walk(path, onerror=unreadable.append):
                rel_root = os.path.relpath(root, path).replace(os.sep, "/")
                rel_root = "" if rel_root == "." else rel_root + "/"
                config_file = CLIENT_DIRS.get(os.path.basename(root)) if root != str(path) else None
                dirs[:] = [] if config_file else sorted(
                    d for d in dirs if (not d.startswith(".") or d in CLIENT_DIRS) and d not in SKIP_DIRS
                    and not excluded(rel_root + d, exclude))
                for f in files:
                    if config_file and f != config_file:
                        continue
                    if config_file and f.endswith(".toml"):  # (Codex's: the only TOML a walk takes)
                        found.append(os.path.join(root, f))
                        continue
                    if Path(f).suffix.lower() not in SUFFIXES:
                        if f.endswith(".py"):
                            modules.append(os.path.join(root, f))
                        continue
                    if excluded(rel_root + f, patterns):
                        skipped += 1
                    else:
                        found.append(os.path.join(root, f))
            for e in unreadable:  # os.walk passes over a directory it cannot list: say so
                err = InputError(f"cannot read directory: {e.strerror or e}", origin=e.filename or p)
                if errors is None or e.filename == p:
                    raise err
                errors.append(err)
            if not found:
                why = f" ({skipped} excluded)" if skipped else ""
                if modules:  # importing each module of a tree would run its code: a server is named
                    n = len(modules)
                    named = sorted(modules, key=lambda m: (_SERVERISH.search(m) is None, m))[0]
                    why += (f"; it holds {n} *.py file{'s' * (n != 1)}: a Python server is scanned when named, "
                            f"as in `mcplint scan {named}` (the modules of a directory are never imported)")
                raise InputError(f"no *.json, *.yaml or *.yml files to scan in this directory{why}", origin=p)
            out += sorted(found)
        elif path.exists():
            out.append(p)
        else:
            raise InputError("no such file or directory", origin=p)
    return out


def _file_kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory")):
        if test(mode):
            return name
    return "not a file"


def read_source(path: str, max_bytes: int) -> Source:
    if path == "-":
        raw = sys.stdin.buffer.read(max_bytes + 1)
        origin = "<stdin>"
    else:
        origin = path
        try:
            # Opened without waiting (a named pipe with no writer would block the open forever),
            # then only a regular file is read: a FIFO, a device or a socket may never end.
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
            with open(fd, "rb") as fh:
                st = os.fstat(fd)
                if not stat.S_ISREG(st.st_mode):
                    raise InputError(f"not a regular file ({_file_kind(st.st_mode)}): mcplint reads only regular "
                                     "files", origin=origin, expected="a file, or the text on stdin as `-`")
                if st.st_size > max_bytes:
                    raise InputError(f"file is {st.st_size} bytes, over the limit of {max_bytes}",
                                     origin=origin, expected="a smaller file, or a higher bounds.max-file-bytes")
                raw = fh.read(max_bytes + 1)
        except OSError as e:
            raise InputError(f"cannot read file: {e.strerror or e}", origin=origin) from None
    if len(raw) > max_bytes:
        raise InputError(f"input is over the limit of {max_bytes} bytes", origin=origin,
                         expected="a smaller input, or a higher bounds.max-file-bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        before = raw[: e.start]
        line = before.count(b"\n") + 1
        col = len(before) - (before.rfind(b"\n") + 1) + 1
        raise InputError(f"not UTF-8 text (byte 0x{raw[e.start]:02x})", origin=origin, line=line, col=col,
                         expected="a UTF-8 encoded JSON or YAML file") from None
    suffix = Path(path).suffix.lower() if path != "-" else ""
    fmt = SUFFIXES.get(suffix)
    if fmt is None:  # stdin or an unusual name: JSON when it looks like JSON
        fmt = "json" if text.lstrip("\ufeff \t\r\n")[:1] in ("{", "[") else "yaml"
    return Source(origin, text, fmt)


def parse(source: Source, max_nodes: int = 2_000_000) -> Document:
    """Parse one source into a Document; raises a located :class:`InputError`."""
    text = source.text
    if not text.strip("\ufeff \t\r\n"):
        raise InputError("file is empty", origin=source.origin, line=1, col=1,
                         expected="a tools/list result, a Tool, an array of Tools or an MCP Description document")
    if source.fmt == "json":
        try:
            data, has_dups, landmarks = parse_json_indexed(text)
            if has_dups:  # where a key repeats, the last is the one that counts: map from the top
                landmarks = None
        except json.JSONDecodeError as e:
            if _at_end(e):
                line, col, expected = _end_of_file(e)
                raise InputError("invalid JSON: unexpected end of file", origin=source.origin, line=line, col=col,
                                 expected=expected) from None
            raise InputError(f"invalid JSON: {e.msg}", origin=source.origin, line=e.lineno, col=e.colno) from None
        except RecursionError:
            raise InputError("JSON nesting is too deep to parse", origin=source.origin, line=1, col=1) from None
        except ValueError as e:  # e.g. numbers too long to convert
            line, col, what = long_number(text)
            raise InputError(f"invalid JSON: {what or e}", origin=source.origin, line=line, col=col,
                             expected="a number of at most 4300 digits" if what else None) from None
        # (duplicates are found without mapping the whole file: a big file may have few findings)
        doc = Document(source, data, _mapper=JsonMapper(landmarks), _reparse=True,
                       duplicate_keys=json_duplicates(text) if has_dups else [])
        return _no_lone_surrogate(doc)
    import yaml

    try:
        data, spans, dups = parse_yaml(text, max_nodes)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        msg = " ".join(x for x in (e.context, e.problem) if x) or "invalid YAML"
        line, col = Positions(text).mark(mark)
        if mark and _char_at(text, line - 1, col - 1) == "\t":
            msg = "a tab character where YAML expects indentation or a value; YAML indents with spaces only"
        raise InputError(f"invalid YAML: {msg}", origin=source.origin, line=line, col=col) from None
    except yaml.reader.ReaderError as e:  # a character YAML does not allow; its position counts UTF-8 bytes
        before = text.encode("utf-8", "surrogatepass")[: e.position].decode("utf-8", "ignore")
        line, col = before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1
        raise InputError(f"invalid YAML: {e.reason} (character U+{e.character:04X})" if isinstance(e.character, int)
                         else f"invalid YAML: {e.reason}", origin=source.origin, line=line, col=col,
                         expected="printable text; write a control character as an escape in a double-quoted "
                                  "string (\"\\0\")") from None
    except yaml.YAMLError as e:
        raise InputError(f"invalid YAML: {e}", origin=source.origin) from None
    except YamlTooLarge as e:
        line, col = Positions(text).mark(e.mark)
        raise InputError(f"{e.prefix}: {e}", origin=source.origin, line=line, col=col) from None
    except RecursionError:
        raise InputError("YAML nesting is too deep to parse", origin=source.origin, line=1, col=1) from None
    if data is None:
        raise InputError("document is empty", origin=source.origin, line=1, col=1)
    doc = Document(source, data, _spans=spans, duplicate_keys=dups)
    return _no_lone_surrogate(doc)


# A surrogate code point, or an escape that may make one (JSON \ud800; YAML \ud800, \U0000d800).
# Matching text is only a hint (an escaped backslash before "ud800" matches too): the data decides.
_SURROGATE_HINT = re.compile(r"[\ud800-\udfff]|\\u[dD][89a-fA-F]|\\U0000[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_lone_surrogate(doc: Document) -> Document:
    """JSON and YAML allow an escape of one half of a surrogate pair (``"\\ud800"``), but such a
    string has no UTF-8 form (RFC 8259 §8.2: its behaviour is unpredictable): a client sending it
    fails or alters it, and no report can quote it. Reported at the string, as an input error."""
    if not _SURROGATE_HINT.search(doc.source.text):
        return doc
    work = [((), doc.data)]
    while work:
        ptr, v = work.pop()
        if isinstance(v, str):
            bad, key = _SURROGATE.search(v), None
        elif isinstance(v, dict):
            key = next((k for k in v if _SURROGATE.search(k)), None)
            bad = _SURROGATE.search(key) if key is not None else None
            work.extend(((*ptr, k), x) for k, x in v.items())
        elif isinstance(v, list):
            bad = None
            work.extend(((*ptr, i), x) for i, x in enumerate(v))
        else:
            continue
        if bad is not None:
            where = (*ptr, key) if key is not None else ptr
            span = doc.locate(Pointer(where))
            what = "key" if key is not None else "string"
            raise InputError(f"a {what} holds a lone surrogate (\\u{ord(bad.group()):04x}), which has no UTF-8 "
                             "form: a client cannot send it", origin=doc.source.origin,
                             line=span.line if span else None, col=span.col if span else None,
                             expected="a complete surrogate pair (\\ud83d\\ude00) or the character itself")
    return doc


_EXPECTING = {
    "Expecting value": "a value",
    "Expecting ',' delimiter": "',' or a closing bracket",
    "Expecting ':' delimiter": "':'",
    "Expecting property name enclosed in double quotes": "a property name in double quotes",
}


def _at_end(e: json.JSONDecodeError) -> bool:
    """Did parsing stop because the text ran out (a truncated file), not at a wrong character?"""
    return e.msg.startswith("Unterminated string") or e.pos >= len(e.doc.rstrip(" \t\r\n"))


def _end_of_file(e: json.JSONDecodeError) -> tuple[int, int, str]:
    """Line and column of the end of the text, and what it still needed: the closing quote of
    an unterminated string, or what json expected plus the brackets left open."""
    doc = e.doc
    end = len(doc.rstrip(" \t\r\n"))
    line = doc.count("\n", 0, end) + 1
    col = end - (doc.rfind("\n", 0, end) + 1) + 1
    if e.msg.startswith("Unterminated string"):
        return line, col, f"the closing quote of the string that starts at {e.lineno}:{e.colno}"
    import re

    stack: list = []
    for m in re.finditer(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', doc):
        t = m.group()
        if t in "[{":
            stack.append(m.start())
        elif t in "]}" and stack:
            stack.pop()
    want = _EXPECTING.get(e.msg, e.msg.removeprefix("Expecting ").strip())
    if stack:
        at = stack[-1]
        l2 = doc.count("\n", 0, at) + 1
        c2 = at - (doc.rfind("\n", 0, at) + 1) + 1
        closer = "'}'" if doc[at] == "{" else "']'"
        more = f", and {len(stack) - 1} more bracket{'s' * (len(stack) > 2)} left open" if len(stack) > 1 else ""
        want += f", then {closer} to close the {'object' if doc[at] == '{' else 'array'} opened at {l2}:{c2}{more}"
    return line, col, want


# A string (skipped whole), or an integer part too long for Python to convert (its limit, 4,300 digits,
# stops a quadratic conversion; no JSON number that long means anything a client could use).
_LONG_NUMBER = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|(-?\d{4301,})', re.DOTALL)


def long_number(text: str) -> tuple:
    """(line, column, message) of the first integer too long to convert, or Nones."""
    m = next((m for m in _LONG_NUMBER.finditer(text) if m.group(1)), None)
    if m is None:
        return None, None, None
    before = text[: m.start(1)]
    digits = len(m.group(1).lstrip("-"))
    return (before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1,
            f"a number with {digits} digits before its fraction or exponent; mcplint reads at most 4300")


def _char_at(text: str, line: int, column: int) -> str:
    lines = text.split("\n", line + 1)
    return lines[line][column:column + 1] if line < len(lines) else ""


def parse_file(path: str, max_bytes: int) -> Document:
    """A file's document. VS Code's ``.vscode/mcp.json`` is JSON with comments and trailing
    commas (code.visualstudio.com/docs/copilot/reference/mcp-configuration), read as such."""
    source = read_source(path, max_bytes)
    if path.lower().endswith(".toml"):  # Codex's config.toml
        from .tomlmap import loads, spans

        return Document(source, loads(source.origin, source.text), _spans=spans(source.text))
    try:
        return parse(source)
    except InputError:
        if not (source.fmt == "json" and path.replace("\\", "/").lower().endswith(".vscode/mcp.json")):
            raise
    return parse(Source(source.origin, strip_jsonc(source.text), "json"))  # its own error if it is not JSONC either


def strip_jsonc(text: str) -> str:
    """JSON with comments (VS Code): comments and trailing commas become spaces, so every
    line and column stays where it was."""
    out, i, n = list(text), 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                out[i] = " "
                i += 1
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            for k in range(i, end):
                if out[k] != "\n":
                    out[k] = " "
            i = end
            continue
        elif c == ",":
            k = i + 1
            while k < n and text[k] in " \t\r\n":
                k += 1
            if k < n and text[k] in "}]":
                out[i] = " "
        i += 1
    return "".join(out)



def load(paths: Iterable[str], max_bytes: int = 10 * 1024 * 1024) -> list[Document]:
    return [parse(read_source(p, max_bytes)) for p in expand_paths(paths)]


def load_text(text: str, origin: str = "<text>", fmt: str = "json") -> Document:
    """Parse text already in memory (a probe capture, a test case)."""
    return parse(Source(origin, text, fmt))
