"""``mcplint project``: rewrite a schema into another form.

Two modes:

* ``--to NAME``: one entry of :data:`TARGETS`, a function from the loaded document to
  ``(output_value, notes)`` (JSON Structure -> JSON Schema; each note a
  :class:`mcplint.jstruct.project.ProjectionNote`).
* ``--profile NAME``: the decoder-safe projection (:mod:`mcplint.project`): every tool's
  schema rewritten into one the profile's target can enforce, with a report of every
  constraint weakened, narrowed or made nullable, and of every tool left out.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..errors import InputError
from ..model import Pointer
from .common import echo_err, echo_json, echo_text


def _to_json_schema(doc):
    """JSON Structure -> JSON Schema 2020-12 (the binding's §4.1 fallback): the document itself
    when it is a JSON Structure schema, else every JSON Structure slot of the tools it holds (the
    output keeps the file's shape; other slots are left as they are)."""
    from ..jstruct import is_jstruct, to_json_schema

    if is_jstruct(doc.data):
        return to_json_schema(doc.data)
    slots = _jstruct_slots(doc)
    if not slots:
        has = isinstance(doc.data, dict) and "$schema" in doc.data
        what = (f"its $schema is {doc.data['$schema']!r}" if has else "it has no $schema") if slots is None else \
            "it is a tools file, and no tool's inputSchema or outputSchema names a JSON Structure meta-schema"
        span = doc.locate(("$schema",) if has and slots is None else ())  # else the document, where it starts
        raise InputError(f"not a JSON Structure schema: {what}", origin=doc.source.origin,
                         line=span.line if span else None, col=span.col if span else None,
                         expected="a JSON Structure schema (an object whose $schema is a JSON Structure meta-schema "
                                  "URI, e.g. https://json-structure.org/meta/core/v0/#), or a tools file with one")
    import copy


    out = copy.deepcopy(doc.data)
    notes: list = []
    for ptr, schema in slots.items():
        projected, slot_notes = to_json_schema(schema)
        parent = Pointer(ptr[:-1]).resolve_in(out)
        parent[ptr[-1]] = projected
        notes += [n._replace(path=ptr + tuple(n.path)) for n in slot_notes]
    return out, notes


def _jstruct_slots(doc) -> dict | None:
    """{slot pointer: schema} of the JSON Structure slots of a tools document, in document order
    (a component several tools reference, once); None when the document is not a tools document."""
    from ..collect import collect
    from ..errors import McplintError
    from ..jstruct import is_jstruct
    from ..versions import VERSIONS

    try:
        coll = collect(doc, VERSIONS)
    except McplintError:
        return None
    return {tuple(slot.pointer): slot.schema for tool in coll.tools for slot in tool.slots()
            if slot.pointer and is_jstruct(slot.schema)}


# name -> (function, help)
TARGETS = {
    "json-schema": (_to_json_schema, "JSON Structure -> JSON Schema 2020-12 fallback projection"),
}


KIND_LABEL = {"left-out": "error", "limit": "error", "weakened": "weakened", "narrowed": "narrowed",
              "nullable": "nullable", "shortened": "shortened", "target-rewrite": "target rewrites",
              "rewritten": "rewritten", "removed": "removed"}


@click.command("project")
@click.argument("file")
@click.option("--to", "target", type=click.Choice(list(TARGETS)),
              help="Target form: " + "; ".join(f"{k}: {v[1]}" for k, v in TARGETS.items()))
@click.option("--profile", "profile", metavar="NAME|PATH",
              help="Decoder profile to project for (e.g. openai-strict; see `mcplint profiles`), or a profile file.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write the result to a file instead of stdout (with --profile the report then goes to stdout).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Format of the --profile report.")
@click.option("-v", "--verbose", is_flag=True, help="List every report item (repeats are folded otherwise).")
@click.option("--unroll-depth", type=click.IntRange(1, 10), default=3, show_default=True,
              help="How many levels deep recursion is unrolled for a target that cannot express it.")
def project(file: str, target: str | None, profile: str | None, output: str | None, fmt: str,
            verbose: bool, unroll_depth: int) -> None:
    """Project the schema in FILE (JSON or YAML, - for stdin) into another form.

    With --profile NAME, every tool's schema is rewritten into one the target can enforce
    (the decoder-safe projection) and the output keeps FILE's shape. A report lists every
    change with FILE:LINE:COL and a JSON Pointer into FILE: constraints weakened, values
    narrowed, optional properties made nullable, and tools left out. The report goes to
    stderr, or to stdout when -o is given. Exit status: 0 the projection accepts exactly
    what FILE accepts; 1 something was weakened, narrowed, made nullable or left out;
    2 unreadable or unsuitable input.

    With --to json-schema, a JSON Structure schema becomes JSON Schema; given a tools file,
    every JSON Structure inputSchema or outputSchema does, and the output keeps FILE's shape.
    Notes go to stderr as FILE:POINTER: note. Exit status: 0 done, 2 unreadable or unsuitable
    input.
    """
    from ..config import Bounds
    from ..load import parse, read_source

    if (target is None) == (profile is None):
        raise click.UsageError("give exactly one of --to NAME or --profile NAME")
    if profile is not None:
        from ..profiles import ALIASES, check_names, load_profile

        if profile in ALIASES:
            raise click.BadParameter(f"give one profile: {profile!r} stands for several (see `mcplint profiles`)",
                                     param_hint="--profile")
        bad = check_names([profile])
        if bad is not None:
            raise click.BadParameter(bad[1], param_hint="--profile")
        prof = load_profile(profile)
        doc = parse(read_source(file, Bounds().max_file_bytes))
        _project_profile(doc, prof, output, fmt, unroll_depth, verbose)
        return
    doc = parse(read_source(file, Bounds().max_file_bytes))
    func, _ = TARGETS[target]
    value, notes = func(doc)
    _write(value, output)
    for note in notes:
        pointer = str(Pointer(note.path))
        echo_err(f"{doc.source.origin}:{pointer or '/'}: note: {note.text}")


def _write(value, output: str | None) -> None:
    text = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    if output:
        from .common import write_file

        write_file(output, text)
    else:
        echo_json(text, nl=False)


def _project_profile(doc, prof, output: str | None, fmt: str, unroll_depth: int, verbose: bool = False) -> None:
    import sys

    from ..project import project_document

    res = project_document(doc, prof, unroll_depth=unroll_depth)
    if res.data is not None:
        _write(res.data, output)
    elif output:
        Path(output).unlink(missing_ok=True)
    to_err = not output
    doc.prepare(Pointer(i.pointer) for i in res.items)
    if fmt == "json":
        echo_json(json.dumps(report_json(res, doc, output), indent=2, ensure_ascii=False), err=to_err)
    else:
        for line in report_text(res, doc, verbose):
            echo_text(line, err=to_err)
    sys.exit(1 if res.changed else 0)


def _where(doc, item) -> tuple[int, int]:

    span = doc.locate(Pointer(item.pointer))
    return (span.line, span.col) if span else (1, 1)


def report_json(res, doc, output: str | None) -> dict:
    items = []
    for it in res.items:
        d = it.as_dict()
        d["line"], d["column"] = _where(doc, it)
        items.append(d)
    counts = res.counts()
    return {
        "version": 1, "file": doc.source.origin, "profile": res.profile.name,
        "output": output if res.data is not None else None,
        "tools": [{"name": t.name, "pointer": str(Pointer(t.pointer)), "status": t.status} for t in res.tools],
        "items": items,
        "summary": {"tools": {"total": len(res.tools), **{s: sum(1 for t in res.tools if t.status == s)
                                                          for s in ("exact", "changed", "left-out")}},
                    "items": counts, "exact_projection": not res.changed},
    }


GROUP_OVER = 3  # more items than this of one kind and subject in one tool are folded (--verbose lists them)


def report_text(res, doc, verbose: bool = False) -> list[str]:
    origin = doc.source.origin
    prof = res.profile
    lines = [f"{origin}: projection for {prof.display} ({prof.name})"]
    groups: dict = {}
    for it in res.items:
        groups.setdefault((it.tool, it.kind, it.subject), []).append(it)
    shown: set = set()
    for it in res.items:
        key = (it.tool, it.kind, it.subject)
        group = groups[key]
        folded = not verbose and len(group) > GROUP_OVER
        if folded and key in shown:
            continue
        shown.add(key)
        line, col = _where(doc, it)
        ptr = str(Pointer(it.pointer)) or "/"
        tool = f" [{it.tool}]" if it.tool else ""
        more = f" (and {len(group) - 1} more like it in this tool; --verbose lists them)" if folded else ""
        lines.append(f"{origin}:{line}:{col}: {KIND_LABEL.get(it.kind, it.kind)}: {ptr}: {it.message}{more}{tool}")
    n = len(res.tools)
    by = {s: sum(1 for t in res.tools if t.status == s) for s in ("exact", "changed", "left-out")}
    c = res.counts()
    parts = [f"{c[k]} {KIND_LABEL[k]}" for k in ("weakened", "narrowed", "nullable", "shortened", "target-rewrite",
                                                 "rewritten", "removed") if c.get(k)]
    lines.append(f"summary: {n} tool(s): {by['exact']} projected exactly, {by['changed']} changed, "
                 f"{by['left-out']} left out" + (f"; {', '.join(parts)}" if parts else ""))
    if by["left-out"]:
        names = ", ".join(t.name for t in res.tools if t.status == "left-out")
        lines.append(f"left out of the output: {names}")
    return lines
