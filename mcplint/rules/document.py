"""DOC: problems with the file itself, before any MCP meaning is read into it."""

from __future__ import annotations

from ..model import Severity
from ..registry import rule


@rule("DOC001", "duplicate-key", severity=Severity.ERROR, scope="document",
      fix="Keep one member per key; delete or rename the others")
def duplicate_key(collection, ctx):
    """An object has the same key more than once.

    ## What it does
    Reports every member of a JSON or YAML object whose key repeats an earlier key of
    the same object. The finding points at the later occurrence and names the line of
    the first.

    ## Why is this bad?
    RFC 8259 §4 says names within an object SHOULD be unique and leaves the meaning of
    duplicates to the parser. Python and JavaScript keep the last value, some parsers
    keep the first, some reject the document. A tool definition with a repeated key
    means different things to different clients, and a linter that silently picks one
    checks a schema that some client never sees.

    ## Example
    ```json
    {"name": "search", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}},
     "properties": {"query": {"type": "string"}}}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}}}
    ```

    ## References
    RFC 8259 §4 (object member names SHOULD be unique); YAML 1.2 §3.2.1.1 (mapping keys are unique).
    """
    for ptr, first in collection.doc.duplicate_keys:
        yield ctx.finding(ptr, f"key {ptr[-1]!r} appears again in this object (first at line {first.line}); "
                               "parsers disagree on which value wins")
