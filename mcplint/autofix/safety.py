"""Whether ``--fix`` may apply a rule's fix (safe) or only ``--unsafe-fixes`` may (unsafe).

A fix is **safe** when it keeps what the schema accepts and what the tool means: it fixes the
form (a string where a boolean is meant, a boolean schema written as the equivalent object,
a misspelt dialect URI, the ``resultType: "complete"`` every 2026-07-28 result carries). It is
**unsafe** when it changes what the schema accepts (adding ``additionalProperties: false``,
enforcing a keyword that was ignored, making a property required), or when it removes data:
a member the spec does not define is removed only with ``--unsafe-fixes``, because the
server's own code or another client may read it (moving it under ``_meta`` keeps it; that is
a choice mcplint leaves to you).

Each entry is a rule ID mapped to ``"safe"``, ``"unsafe"``, or, where one rule's patches
differ, to a map from an RFC 6902 operation (``"replace"``, or ``"replace type"`` for a replace
whose path ends in ``type``) to its safety (the fix is as unsafe as its least safe operation). A rule with a patch that is not listed here is unsafe (a test keeps the
table complete).
"""

from __future__ import annotations

SAFE, UNSAFE, DISPLAY = "safe", "unsafe", "display-only"

FIXES: dict = {
    # MCP Tool shape
    "MCP102": UNSAFE,  # adds a closed no-argument inputSchema: asserts the tool takes no arguments
    "MCP103": {"replace": UNSAFE},  # replaces a non-object inputSchema by a closed no-argument one
    "MCP104": UNSAFE,  # removes a member MCP does not define (data someone may read)
    "MCP105": UNSAFE,  # removes a member another protocol version defines
    "MCP106": {"add": SAFE, "replace": UNSAFE},  # add: arguments are objects anyway; replace drops a type
    "MCP107": {"add": SAFE, "replace": UNSAFE},  # add beside $ref/allOf; replace narrows a type list
    "MCP108": SAFE,  # true -> {}, false -> {"not": {}}: the same schema
    "MCP109": SAFE,  # structured results are objects before 2026-07-28
    "MCP110": SAFE,  # "required": "a" -> ["a"]
    "MCP112": UNSAFE,  # removes an annotation MCP does not define
    "MCP113": SAFE,  # "true" -> true
    "MCP114": UNSAFE,  # which of two contradicting hints is meant is a judgement
    "MCP125": UNSAFE,  # additionalProperties: false rejects arguments that were accepted
    "MCP128": SAFE,  # resultType "complete" is what a missing one means
    "MCP304": UNSAFE,  # removes structuredContent from an example error result
    "MCP309": SAFE,  # resultType "complete" is what a missing one means
    "MCP310": UNSAFE,  # removes resultType for every version the document declares
    # JSON Schema
    "SCH102": SAFE,  # a near-miss $schema URI spelt exactly
    "SCH103": UNSAFE,  # renaming a misspelt keyword makes its constraint enforced
    # nullable: true -> type [T, "null"] accepts null (unsafe); example -> examples is an annotation
    "SCH104": {"remove": SAFE, "move": SAFE, "replace examples": SAFE, "replace type": UNSAFE, "add": UNSAFE},
    "SCH105": {"remove": SAFE, "add": UNSAFE},  # listing the property in required makes it required
    # JSON Structure binding
    "JST107": UNSAFE,  # the zero-argument convention changes what the schema accepts
    "JST110": UNSAFE,  # activating an add-in enforces its keywords
    "JST112": UNSAFE,  # activating alternate names changes the accepted member names
    "JST113": SAFE,  # the same number, written as the string the binding requires
}


def _op_safety(entry, op: dict) -> str:
    if isinstance(entry, dict):
        name = op.get("op", "")
        last = str(op.get("path", "")).rsplit("/", 1)[-1]
        return entry.get(f"{name} {last}", entry.get(name, UNSAFE))
    return entry or UNSAFE


def applicability(rule: str, patch) -> str:
    """safe, unsafe, or display-only (no patch to apply)."""
    if not patch:
        return DISPLAY
    entry = FIXES.get(rule)
    if entry is None:
        return UNSAFE
    return SAFE if all(_op_safety(entry, op) == SAFE for op in patch) else UNSAFE


def is_safe(rule: str, patch) -> bool:
    return applicability(rule, patch) == SAFE


def fixable(f, unsafe: bool = False) -> bool:
    """Would ``--fix`` (with ``unsafe``: ``--fix --unsafe-fixes``) apply this finding's fix?
    Not for a finding in a Python server's generated tools: mcplint does not edit code."""
    if f.fix is None or not f.fix.patch or getattr(f, "source", None) is not None:
        return False
    return unsafe or is_safe(f.rule, f.fix.patch)
