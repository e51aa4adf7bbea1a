"""``mcplint validate``: check a tool call's arguments and/or result against the tool's
full schemas (the validation gateway the article "Your MCP Tool Schema Is Legal and Your Model Still Can't Obey It" calls for)."""

from __future__ import annotations

import json
import sys

import click

from ..versions import LATEST, VERSIONS
from .common import echo_json, echo_text

SEVERITIES = ("error", "warning", "info")


@click.command("validate")
@click.argument("tools_path", metavar="TOOLS")
@click.option("--tool", "tool_name", help="Name of the tool to validate against (optional when TOOLS holds one).")
@click.option("--arguments", "arguments_path", type=str,
              help="JSON/YAML file with the call's arguments object (or a tools/call request); - for stdin.")
@click.option("--result", "result_path", type=str,
              help="JSON/YAML file with the CallToolResult (or a JSON-RPC response carrying it); - for stdin.")
@click.option("--protocol-version", type=click.Choice(VERSIONS), default=LATEST, show_default=True,
              help="MCP revision the result is checked for.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--fail-on", type=click.Choice(SEVERITIES), default="error", show_default=True,
              help="Lowest severity that makes the exit code 1.")
@click.option("--timeout", type=click.FloatRange(min=0.01), default=2.0, show_default=True,
              help="Time budget in seconds for each validation (SEP-2106 bound).")
def validate(tools_path, tool_name, arguments_path, result_path, protocol_version, fmt, fail_on, timeout) -> None:
    """Validate a tool call's ARGUMENTS and/or RESULT against the full, un-projected schemas
    of a tool declared in TOOLS (any shape `mcplint scan` reads, JSON or YAML, - for stdin).

    Each problem names the failing location as a JSON Pointer into the arguments or result,
    the keyword that failed, and the line and column in the file.

    Exit status: 0 valid, 1 invalid (problems at or above --fail-on), 2 unusable input
    (unreadable file, unknown tool name, bad usage).
    """
    from ..config import Bounds
    from ..model import Pointer
    from ..validate import Limits, validate_arguments, validate_result

    if not arguments_path and not result_path:
        raise click.UsageError("give --arguments FILE, --result FILE, or both")
    stdin_users = [p for p in (tools_path, arguments_path, result_path) if p == "-"]
    if len(stdin_users) > 1:
        raise click.UsageError("only one of TOOLS, --arguments and --result can be read from stdin (-)")

    max_bytes = Bounds().max_file_bytes
    limits = Limits(timeout=timeout)
    args_doc = args_value = None
    args_prefix: tuple = ()
    if arguments_path:
        args_doc = _load(arguments_path, max_bytes, "an arguments object or a tools/call request")
        args_value, args_prefix, called = _unwrap_arguments(args_doc.data)
        tool_name = tool_name or called
    result_doc = result_value = None
    result_prefix: tuple = ()
    if result_path:
        result_doc = _load(result_path, max_bytes, "a CallToolResult or a JSON-RPC response whose result is one")
        result_value, result_prefix = _unwrap_result(result_doc)

    tool = _find_tool(tools_path, tool_name, protocol_version, max_bytes)
    rows = []
    sections = []
    if args_doc is not None:
        problems = validate_arguments(tool.data, args_value, limits=limits)
        rows += _rows("arguments", args_doc, args_prefix, problems, Pointer)
        sections.append(("arguments", problems))
    if result_doc is not None:
        problems = validate_result(tool.data, result_value, protocol_version, limits=limits)
        rows += _rows("result", result_doc, result_prefix, problems, Pointer)
        sections.append(("result", problems))

    threshold = SEVERITIES.index(fail_on)
    failing = [r for r in rows if SEVERITIES.index(r["severity"]) <= threshold]
    counts = {s: sum(1 for r in rows if r["severity"] == s) for s in SEVERITIES}
    if fmt == "json":
        echo_json(json.dumps({
           "version": 1, "tool": tool.label, "protocol_version": protocol_version,
           "valid": not any(r["severity"] == "error" for r in rows),
           "problems": rows,
           "summary": {"errors": counts["error"], "warnings": counts["warning"], "infos": counts["info"]},
        }, indent=2, ensure_ascii=False))
    else:
        for r in rows:
            where = f"{r['file']}:{r['line']}:{r['column']}"
            echo_text(f"{where}: {r['severity']} [{r['keyword']}] at {r['pointer'] or '/'}: {r['message']}")
        parts = []
        for target, problems in sections:
            errs = sum(1 for p in problems if p.is_error)
            others = len(problems) - errs
            verdict = "invalid" if errs else "valid"
            detail = ", ".join(x for x in (f"{errs} error{'s' * (errs != 1)}" if errs else "",
                                           f"{others} other problem{'s' * (others != 1)}" if others else "") if x)
            parts.append(f"{target} {verdict}" + (f" ({detail})" if detail else ""))
        echo_text(f"tool {tool.label!r}, MCP {protocol_version}: " + "; ".join(parts))
    sys.exit(1 if failing else 0)


def _load(path: str, max_bytes: int, expected: str | None = None):
    from ..errors import InputError
    from ..load import parse, read_source

    try:
        return parse(read_source(path, max_bytes))
    except InputError as e:
        if expected and e.message in ("file is empty", "document is empty"):
            e.expected = expected  # the loader's default names what scan expects
        raise


def _unwrap_arguments(data):
    """An arguments object, or a tools/call request (bare params, or a JSON-RPC request)."""
    if isinstance(data, dict) and data.get("method") == "tools/call" and isinstance(data.get("params"), dict):
        params = data["params"]
        return params.get("arguments", {}), ("params", "arguments"), params.get("name")
    return data, (), None


def _unwrap_result(doc):
    from ..errors import InputError

    data = doc.data
    if isinstance(data, dict) and "jsonrpc" in data:
        if "result" in data:
            return data["result"], ("result",)
        if "error" in data:
            span = doc.locate(("error",))
            raise InputError("this is a JSON-RPC error response, not a tool result", origin=doc.source.origin,
                             line=span.line if span else None, col=span.col if span else None,
                             expected="a CallToolResult or a JSON-RPC response whose result is one")
    return data, ()


def _find_tool(path: str, name: str | None, version: str, max_bytes: int):
    from ..collect import collect
    from ..errors import InputError

    doc = _load(path, max_bytes)
    coll = collect(doc, (version,))

    def fail(message: str, expected: str | None = None):
        span = doc.locate(coll.container / "tools") or doc.locate(coll.container)
        return InputError(message, origin=doc.source.origin, line=span.line if span else None,
                          col=span.col if span else None, expected=expected)

    names = sorted({t.name for t in coll.tools if t.name is not None})
    listing = ", ".join(repr(n) for n in names[:20]) + (" ..." if len(names) > 20 else "")
    if name is None:
        if len(coll.tools) == 1:
            return coll.tools[0]
        raise fail(f"{len(coll.tools)} tools declared here; name one with --tool", expected=listing)
    found = [t for t in coll.tools if t.name == name]
    if not found:
        raise fail(f"no tool named {name!r}", expected=f"one of {listing}" if names else "a file that declares tools")
    in_version = [t for t in found if version in t.versions] or (found if coll.shape != "mcpdesc" else [])
    if not in_version:
        scopes = ", ".join(sorted({v for t in found for v in t.versions})) or "no known version"
        raise fail(f"tool {name!r} is not declared for MCP {version} (declared for {scopes})",
                   expected="--protocol-version set to one of those")
    tool = in_version[0]
    if not isinstance(tool.data, dict):
        span = doc.locate(tool.pointer)
        raise InputError(f"tool {name!r} is not an object", origin=doc.source.origin,
                         line=span.line if span else None, col=span.col if span else None)
    return tool


def _rows(target: str, doc, prefix: tuple, problems, Pointer) -> list[dict]:
    rows = []
    for p in problems:
        span = doc.locate(Pointer(prefix + tuple(p.path)))
        rows.append({
            "target": target, "file": doc.source.origin, "line": span.line if span else 1,
            "column": span.col if span else 1, "pointer": p.pointer, "keyword": p.keyword, "message": p.message,
            "severity": p.severity, "code": p.code, "schema_pointer": p.schema_pointer,
        })
    return rows
