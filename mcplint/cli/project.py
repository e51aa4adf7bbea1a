"""``mcplint project``: rewrite a schema into another form.

Each target is one entry of :data:`TARGETS` (``--to NAME``): a function from the loaded
document to ``(output_value, notes)``. A decoder-profile projection (``--profile``) is
meant to slot in beside ``--to`` the same way.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..errors import InputError


def _to_json_schema(doc):
    """JSON Structure -> JSON Schema 2020-12 (the binding's §4.1 fallback)."""
    from ..jstruct import is_jstruct, to_json_schema

    if not is_jstruct(doc.data):
        found = doc.data.get("$schema") if isinstance(doc.data, dict) else None
        span = doc.locate(("$schema",)) if isinstance(doc.data, dict) and "$schema" in doc.data else None
        raise InputError(f"not a JSON Structure schema ($schema is {found!r})", origin=doc.source.origin,
                         line=span.line if span else None, col=span.col if span else None,
                         expected="an object whose $schema is a JSON Structure meta-schema URI, "
                                  "e.g. https://json-structure.org/meta/core/v0/#")
    return to_json_schema(doc.data)


# name -> (function, help)
TARGETS = {
    "json-schema": (_to_json_schema, "JSON Structure -> JSON Schema 2020-12 fallback projection"),
}


@click.command("project")
@click.argument("file")
@click.option("--to", "target", type=click.Choice(list(TARGETS)), required=True,
              help="Target form: " + "; ".join(f"{k}: {v[1]}" for k, v in TARGETS.items()))
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write the result to a file instead of stdout.")
def project(file: str, target: str, output: str | None) -> None:
    """Project the schema in FILE (JSON or YAML, - for stdin) into another form.

    What had to be loosened or dropped is listed on stderr, one line per note, as
    FILE:POINTER: note. Exit status: 0 done, 2 unreadable or unsuitable input.
    """
    from ..config import Bounds
    from ..load import parse, read_source

    doc = parse(read_source(file, Bounds().max_file_bytes))
    func, _ = TARGETS[target]
    value, notes = func(doc)
    text = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)
    for ptr, note in notes:
        pointer = "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in ptr)
        click.echo(f"{doc.source.origin}:{pointer or '/'}: note: {note}", err=True)
