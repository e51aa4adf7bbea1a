"""JST: add-in keywords used without activating their add-in in ``$uses`` or the meta-schema."""

from __future__ import annotations

from ...jstruct import dialects
from ...jstruct import schema as checks
from ...jstruct.keywords import KEYWORD_ADDIN
from ...model import Severity
from ...registry import rule
from .common import is_bound


def _uses_patch(slot, addin):
    base = str(slot.pointer)
    uses = slot.schema.get("$uses")
    if isinstance(uses, list):
        return ({"op": "add", "path": base + "/$uses/-", "value": addin},)
    return ({"op": "add", "path": base + "/$uses", "value": [addin]},)


def _addin_of(p):
    return KEYWORD_ADDIN.get(p.keyword)


def _activation_findings(slot, ctx, problems):
    patched: set = set()
    for p in problems:
        addin = _addin_of(p)
        patch = ()
        if addin and addin not in patched and addin in dialects.offered(slot.schema.get("$schema")):
            patch = _uses_patch(slot, addin) if not patched else ()
            patched.add(addin)
        yield ctx.finding(slot.pointer + p.path, p.message, fix=f"Add \"{addin}\" to $uses" if addin else None,
                          patch=patch)


@rule("JST110", "unactivated-addin-keyword", severity=Severity.ERROR, scope="slot", requires="jstruct",
      fix_safety="unsafe", fix_note="activating an add-in enforces its keywords",
      fix="Name the add-in in $uses, or select a meta-schema that activates it")
def unactivated_addin_keyword(slot, ctx):
    """A bound slot uses a keyword of an add-in it does not activate.

    ## What it does
    Reports each keyword of the validation (`minimum`, `pattern`, `minItems`, `default`,
    ...), conditional-composition (`allOf`, `if`, ...), units, relations or semantic
    annotations add-in, when the add-in is neither named in `$uses` nor active by default
    under the selected meta-schema (only `.../meta/validation/v0/#` activates add-ins by
    default). Alternate names are JST112; import is JST108.

    ## Why is this bad?
    An unactivated add-in keyword is ignored, not rejected: a client MUST treat the
    instance as unconstrained by it (§5.4). The schema reads as tightly constrained and
    enforces nothing; a server MUST NOT emit it.

    ## Example
    ```json
    {"name": "set_volume", "inputSchema": {"$schema": "https://json-structure.org/meta/extended/v0/#",
     "$id": "https://tools.example.com/schemas/set-volume-input", "name": "SetVolumeInput", "type": "object",
     "properties": {"level": {"type": "int32", "minimum": 0, "maximum": 11}}}}
    ```

    ## Use instead
    ```json
    {"name": "set_volume", "inputSchema": {"$schema": "https://json-structure.org/meta/extended/v0/#",
     "$id": "https://tools.example.com/schemas/set-volume-input", "name": "SetVolumeInput", "type": "object",
     "$uses": ["JSONStructureValidation"],
     "properties": {"level": {"type": "int32", "minimum": 0, "maximum": 11}}}}
    ```

    ## References
    JSON Structure MCP binding §5.4 (extension activation) and §10 (silently unenforced
    constraints); binding §3.1 table (what each meta-schema activates).
    """
    if not is_bound(slot):
        return
    yield from _activation_findings(slot, ctx, checks.check_activation(slot.schema, memo=ctx.memo))


@rule("JST112", "altnames-not-activated", severity=Severity.ERROR, scope="slot", requires="jstruct",
      fix_safety="unsafe", fix_note="activating alternate names changes the accepted member names",
      fix="Add \"JSONStructureAlternateNames\" to $uses")
def altnames_not_activated(slot, ctx):
    """A bound slot uses `altnames` without activating the alternate-names add-in.

    ## What it does
    Reports `altnames`, `altenums`, `descriptions` and `altsymbols` when
    `JSONStructureAlternateNames` is neither in `$uses` nor active by default.

    ## Why is this bad?
    `altnames.json` sets the key a property travels under (§6). Unactivated, it must be
    ignored (§5.4): a client that honours the binding expects `maxResults` while the
    server reads `max-results`, and every call carrying the argument fails or drops it.

    ## Example
    ```json
    {"name": "list_items", "inputSchema": {"$schema": "https://json-structure.org/meta/extended/v0/#",
     "$id": "https://tools.example.com/schemas/list-items-input", "name": "ListItemsInput", "type": "object",
     "properties": {"maxResults": {"type": "int32", "altnames": {"json": "max-results"}}}}}
    ```

    ## Use instead
    ```json
    {"name": "list_items", "inputSchema": {"$schema": "https://json-structure.org/meta/extended/v0/#",
     "$id": "https://tools.example.com/schemas/list-items-input", "name": "ListItemsInput", "type": "object",
     "$uses": ["JSONStructureAlternateNames"],
     "properties": {"maxResults": {"type": "int32", "altnames": {"json": "max-results"}}}}}
    ```

    ## References
    JSON Structure MCP binding §6 (a schema using altnames for wire names MUST activate
    JSONStructureAlternateNames) and §5.4.
    """
    if not is_bound(slot):
        return
    yield from _activation_findings(slot, ctx, checks.check_altnames_activation(slot.schema, memo=ctx.memo))
