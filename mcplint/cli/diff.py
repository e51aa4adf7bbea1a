from __future__ import annotations

import json
import sys

import click

from ..versions import LATEST, VERSIONS


@click.command("diff")
@click.argument("old")
@click.argument("new")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--protocol-version", "protocol_versions", multiple=True, type=click.Choice(VERSIONS),
              help=f"MCP revision the files are read as; repeatable. Default: {LATEST}.")
@click.option("--fail-on", type=click.Choice(["error", "warning", "info"]), default="error", show_default=True,
              help="Lowest severity of change that makes the exit code 1 (error: breaking changes).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write the report to a file.")
def diff(old, new, fmt, protocol_versions, fail_on, output) -> None:
    """Breaking changes between two versions of a server's tools (OLD and NEW: files or - for stdin).

    Exit status: 0 no change at or above --fail-on, 1 breaking (or --fail-on) changes,
    2 unreadable input.
    """
    from ..config import Bounds
    from ..diff import diff_documents
    from ..errors import EXIT_CLEAN, EXIT_FINDINGS
    from ..load import parse, read_source
    from ..model import Severity

    if old == "-" and new == "-":
        raise click.UsageError("only one of OLD and NEW can be stdin")
    bounds = Bounds()
    docs = [parse(read_source(p, bounds.max_file_bytes)) for p in (old, new)]
    versions = tuple(v for v in VERSIONS if v in protocol_versions) or (LATEST,)
    changes = diff_documents(docs[0], docs[1], versions, bounds.max_depth)
    counts = {s: sum(1 for c in changes if c.severity == s) for s in Severity}
    if fmt == "json":
        text = json.dumps({
            "version": 1, "old": docs[0].source.origin, "new": docs[1].source.origin,
            "changes": [{"kind": c.kind, "severity": c.severity.label, "breaking": c.breaking, "message": c.message,
                         "tool": c.tool, "side": c.side, "file": c.origin, "line": c.line, "column": c.column,
                         "pointer": str(c.pointer)} for c in changes],
            "summary": {"breaking": counts[Severity.ERROR], "warnings": counts[Severity.WARNING],
                        "infos": counts[Severity.INFO]},
        }, indent=2, ensure_ascii=False) + "\n"
    else:
        lines = [f"{c.origin}:{c.line}:{c.column}: {c.severity.label} {c.kind} [tool {c.tool}] {c.message}"
                 f" (at {c.pointer})" for c in changes]
        b, w, i = counts[Severity.ERROR], counts[Severity.WARNING], counts[Severity.INFO]
        if not changes:
            lines.append(f"No changes to the tools' contracts between {old} and {new}.")
        else:
            lines.append(f"{b} breaking change{'s' * (b != 1)}, {w} warning{'s' * (w != 1)}, {i} compatible "
                         f"change{'s' * (i != 1)} between {old} and {new}.")
        text = "\n".join(lines) + "\n"
    if output:
        from .common import write_file

        write_file(output, text)
    else:
        from .common import echo_json, echo_text

        (echo_json if fmt == "json" else echo_text)(text, nl=False)
    worst = max((c.severity for c in changes), default=None)
    sys.exit(EXIT_FINDINGS if worst is not None and worst >= Severity.parse(fail_on) else EXIT_CLEAN)
