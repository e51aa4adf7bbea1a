"""Errors that stop a run, each with a location and a distinct exit code.

Exit codes (stable, documented in the README):
  0  no finding at or above ``--fail-on``
  1  findings at or above ``--fail-on``
  2  the input could not be used: unreadable file, invalid JSON/YAML, unknown shape,
     bad configuration or usage, a server that could not be probed
  3  mcplint itself failed (a bug: please report it)
"""

from __future__ import annotations

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_INPUT = 2
EXIT_INTERNAL = 3


class McplintError(Exception):
    """An error with a location, reported as ``origin:line:col: message``."""

    exit_code = EXIT_INPUT
    kind = "error"

    def __init__(self, message: str, origin: str | None = None, line: int | None = None,
                 col: int | None = None, expected: str | None = None):
        super().__init__(message)
        self.message = message
        self.origin = origin
        self.line = line
        self.col = col
        self.expected = expected

    def __reduce__(self):  # keep the location when an error crosses a process boundary
        return (self.__class__, (self.message, self.origin, self.line, self.col, self.expected))

    def __str__(self) -> str:
        where = ""
        if self.origin:
            from .textsafe import inline  # a path or a name of input origin: one line, no control character

            where = inline(self.origin)
            if self.line is not None:
                where += f":{self.line}"
                if self.col is not None:
                    where += f":{self.col}"
            where += ": "
        text = f"{where}{self.kind}: {self.message}"
        if self.expected:
            text += f" (expected {self.expected})"
        return text


class InputError(McplintError):
    kind = "input error"


class NotAServer(InputError):
    """A Python module with no MCP tools to check: no server (it imports no SDK, builds no server
    anywhere, or is a package's entry point that would start its program), or a server of prompts
    or resources only. Among other inputs that were scanned (``mcplint scan src/*.py``, a
    pre-commit hook's files) it is skipped and named in a warning; when nothing else was
    scanned, an input error."""

    @staticmethod
    def skipped(errors: list) -> str:
        """The warning naming the modules passed over (the first ten)."""
        names = sorted(str(e.origin) for e in errors)
        shown = ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")
        return (f"skipped {len(names)} Python module{'s' * (len(names) != 1)} with no MCP tools to check: {shown} "
                "(scanned alone, each says why)")


class ConfigError(McplintError):
    kind = "config error"


def undecodable_at(e: UnicodeDecodeError) -> tuple[int, int]:
    """(line, column) of the first byte of a file that is not UTF-8 (the byte is never quoted)."""
    head = e.object[: e.start]
    return head.count(b"\n") + 1, e.start - (head.rfind(b"\n") + 1) + 1


def native_panic(e: BaseException) -> bool:
    """A native extension's panic (PyO3's ``PanicException``, raised by jsonschema-rs, for one,
    when it meets what it cannot handle): a ``BaseException``, so no ``except Exception`` stops
    it. Not Ctrl-C, not an exit, nor mcplint's own control-flow exceptions."""
    return (not isinstance(e, (Exception, KeyboardInterrupt, SystemExit, GeneratorExit))
            and type(e).__name__ == "PanicException")


def rule_stopped(e: BaseException, rule_id: str, doc, target, slot_kind: str | None, internal: type) -> McplintError:
    """The error for a rule stopped by ``e`` on ``target`` (a tool, a schema slot or the whole
    collection) of ``doc``: out of stack, a bug (``internal``, exit 3); a native library's panic,
    an input error located at the target (exit 2). Anything else (Ctrl-C, an exit, a bug's own
    exception) is raised again as it is."""
    if isinstance(e, RecursionError):
        return internal(f"rule {rule_id} ran out of stack (nesting too deep)", origin=doc.source.origin)
    if not native_panic(e):
        raise e
    from .model import Pointer

    pointer = getattr(target, "pointer", None)
    what = "schema" if slot_kind else "tool" if pointer is not None else "document"
    span = doc.locate(pointer if pointer is not None else Pointer())
    return InputError(f"rule {rule_id} could not check this {what}: a native library failed on it "
                      f"({type(e).__name__}: {str(e)[:200]})", origin=doc.source.origin,
                      line=span.line if span else None, col=span.col if span else None)


def unlink_validation_errors(errors) -> None:
    """Break the reference cycles jsonschema's errors make (a sub-error of an ``anyOf`` names its
    parent, which lists it in its ``context``). The engine lints with the cycle collector off, so
    what it drops must be freed by reference counting (tests/test_engine_gc.py). Read what you
    need of an error (``absolute_path`` climbs the parents) before unlinking it."""
    stack = list(errors)
    while stack:
        e = stack.pop()
        stack.extend(e.context)
        e.context, e.parent = [], None
