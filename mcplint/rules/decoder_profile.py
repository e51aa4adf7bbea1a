"""DEC: what each selected decoder profile does with a tool's schema.

These rules carry no facts of their own: every decision comes from the profile YAML
(``mcplint/profiles.py``). They run once per profile chosen with ``--profile`` (or the
``profiles`` config key); with no profile selected they never run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..dialects import dialect_of
from ..model import Pointer, Severity
from ..registry import rule

if TYPE_CHECKING:  # mcplint.profiles is imported only when a profile rule runs
    from ..profiles import Effect, Profile

_PROFILES = None


def _profiles():
    """mcplint.profiles, imported on first use (a plain scan without --profile never needs it)."""
    global _PROFILES
    if _PROFILES is None:
        from .. import profiles

        _PROFILES = profiles
    return _PROFILES


# id(schema) -> (schema, SlotFacts, {id(profile): (profile, {consequence or "limit": [Effect]})})

_SLOT_CACHE: dict = {}
SEVERITY_OF = {"reject": Severity.ERROR, "drop": Severity.ERROR, "weaken": Severity.WARNING,
               "rewrite": Severity.WARNING, "annotation": Severity.INFO}


def _slot_effects(profile: Profile, slot) -> dict:
    """The profile's effects on one slot, grouped by what the DEC rules ask for: evaluated
    once per (profile, slot), with one walk of the slot shared by every profile."""
    if slot.kind not in profile.slots:
        return {}
    schema = slot.schema
    if isinstance(schema, dict) and dialect_of(schema) == "json-structure":
        # No decoder reads JSON Structure: a client without the binding gets the JSON Schema
        # fallback (binding §4.1), which is what a profile applies to (`mcplint project --to json-schema`).
        return {}
    pm = _profiles()
    hit = _SLOT_CACHE.get(id(schema))
    if hit is None or hit[0] is not schema:
        if len(_SLOT_CACHE) > 512:
            _SLOT_CACHE.clear()
        hit = _SLOT_CACHE[id(schema)] = (schema, pm.SlotFacts(schema), {})
    per_profile = hit[2]
    got = per_profile.get(id(profile))
    if got is not None and got[0] is profile:
        return got[1]
    groups: dict = {}
    for e in pm.evaluate_slot(profile, schema, facts=hit[1]):
        want = "limit" if e.kind == "limit" else profile.consequence(e.rule)
        groups.setdefault(want, []).append(e)
    per_profile[id(profile)] = (profile, groups)
    return groups


def _emit(ctx, profile: Profile, effect: Effect, base: Pointer, tool_name: str | None):
    consequence = profile.consequence(effect.rule)
    severity = SEVERITY_OF[consequence]
    if effect.rule.source.confidence == "low" and severity > Severity.WARNING:
        severity = Severity.WARNING  # a low-evidence fact does not fail CI by default
    return ctx.finding(base + effect.pointer, _profiles().describe(profile, effect, tool_name),
                       fix=getattr(effect.rule, "fix", None), severity=severity, consequence=consequence)


def _slot_rule(slot, ctx, want):
    profile = ctx.profile
    if profile is None:
        return
    for e in _slot_effects(profile, slot).get(want, ()):
        if want == "annotation" and not e.rule.message:
            continue  # a plain annotation (title, $schema, ...) is not news
        yield _emit(ctx, profile, e, slot.pointer, slot.tool.name)


@rule("DEC001", "construct-rejected-by-profile", severity=Severity.ERROR, scope="slot", profiled=True,
      fix="Remove or rewrite the construct the profile rejects")
def construct_rejected(slot, ctx):
    """The target fails the request (or cannot compile the grammar) because of this construct.

    ## What it does
    For each selected profile, reports every keyword and structural construct the profile
    marks `reject` for a hosted API or a local decoder: an unsupported keyword (`allOf`
    under OpenAI strict), a value outside an allowlist (`format: uri`), a missing
    `additionalProperties: false`, an optional property where every key must be required,
    a combinator at the root. Where the provider's own error text is known the finding
    quotes it, so it can be matched against what was seen in production.

    ## Why is this bad?
    The request that carries this tool fails with HTTP 400 (or the decoder refuses to build
    a grammar), so none of the tools in it can be called. MCP 2026-07-28 allows all of JSON
    Schema 2020-12; a constrained decoder enforces only a subset (seed 003).

    ## Example
    <!-- settings: {"profiles": ["openai-strict"]} -->
    ```json
    {"name": "update_page", "inputSchema": {"type": "object", "additionalProperties": false, "required": ["data"],
     "properties": {"data": {"allOf": [{"type": "object", "properties": {}, "additionalProperties": false}]}}}}
    ```

    ## Use instead
    <!-- settings: {"profiles": ["openai-strict"]} -->
    ```json
    {"name": "update_page", "inputSchema": {"type": "object", "additionalProperties": false, "required": ["data"],
     "properties": {"data": {"type": "object", "properties": {}, "additionalProperties": false}}}}
    ```

    ## References
    Seed 003 (decoder profiles); the profile file's per-fact sources (`mcplint profile NAME`);
    https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas
    """
    yield from _slot_rule(slot, ctx, "reject")


@rule("DEC002", "constraint-not-enforced-by-profile", severity=Severity.WARNING, scope="slot", profiled=True,
      fix="Keep the check in your server's validation, or restate the constraint in a form the target enforces")
def constraint_not_enforced(slot, ctx):
    """The target accepts the schema but silently does not enforce this constraint.

    ## What it does
    Reports every keyword or construct a selected profile marks `drop`: the request
    succeeds and the decoder constrains against what is left, e.g. xgrammar ignoring
    `uniqueItems`, Outlines ignoring numeric bounds, Gemini treating `oneOf` as `anyOf`.

    ## Why is this bad?
    The model can now produce arguments that violate the schema you wrote, while the schema
    looks enforced. This is seed 003's "quiet weakening": it shows up as an intermittent
    validation failure on exactly this keyword. Validate arguments against the full schema
    on the server side, or rewrite the constraint into one the target enforces.

    ## Example
    <!-- settings: {"profiles": ["xgrammar"]} -->
    ```json
    {"name": "tag", "inputSchema": {"type": "object", "properties": {"tags": {"type": "array",
     "items": {"type": "string"}, "uniqueItems": true}}}}
    ```

    ## Use instead
    <!-- settings: {"profiles": ["xgrammar"]} -->
    ```json
    {"name": "tag", "inputSchema": {"type": "object", "additionalProperties": false,
     "properties": {"tags": {"type": "array", "items": {"type": "string"}}}}}
    ```

    ## References
    Seed 003 ("the quiet weakening"); the profile's sources, e.g. the xgrammar 0.2.9 probe results.
    """
    yield from _slot_rule(slot, ctx, "weaken")


@rule("DEC003", "tool-left-out-by-client", severity=Severity.ERROR, scope="slot", profiled=True,
      fix="Change the schema so the client accepts the tool")
def tool_left_out(slot, ctx):
    """A client silently leaves the whole tool out because of this construct.

    ## What it does
    Reports constructs a client profile rejects by skipping the tool: gemini-cli skips a
    tool with a parameter schema that has no type; VS Code Copilot refuses an array without
    `items`. The client logs a line nobody reads and the model never sees the tool.

    ## Why is this bad?
    Seed 003's "silent disappearance": the agent routes around a capability that is, by
    every check the server owns, correct. Nothing fails loudly.

    ## Example
    <!-- settings: {"profiles": ["vscode-copilot"]} -->
    ```json
    {"name": "add_result", "inputSchema": {"type": "object", "properties": {"rows": {"type": "array"}}}}
    ```

    ## Use instead
    <!-- settings: {"profiles": ["vscode-copilot"]} -->
    ```json
    {"name": "add_result", "inputSchema": {"type": "object", "properties": {"rows": {"type": "array", "items": {}}}}}
    ```

    ## References
    Seed 003 ("the silent disappearance"); https://github.com/microsoft/vscode/issues/284536;
    https://github.com/arben-adm/mcp-sequential-thinking/issues/12
    """
    yield from _slot_rule(slot, ctx, "drop")


@rule("DEC004", "schema-rewritten-by-client", severity=Severity.WARNING, scope="slot", profiled=True,
      fix="Write the schema in the form the client would produce, so its meaning does not change")
def schema_rewritten(slot, ctx):
    """A client SDK or decoder changes what this part of the schema means before the model sees it.

    ## What it does
    Reports constructs a selected profile marks `rewrite`: openai-agents lists every
    property in `required` (an optional field becomes mandatory) and turns `oneOf` into
    `anyOf`; xgrammar and Outlines match `pattern` against the whole string and close
    objects that the schema leaves open.

    ## Why is this bad?
    What reaches the decoder is not the schema you wrote. The fix depends on it: an optional
    field must become required-and-nullable to keep its meaning under openai-agents.

    ## Example
    <!-- settings: {"profiles": ["openai-agents"]} -->
    ```json
    {"name": "search", "inputSchema": {"type": "object", "additionalProperties": false, "required": ["q"],
     "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}}}}
    ```

    ## Use instead
    <!-- settings: {"profiles": ["openai-agents"]} -->
    ```json
    {"name": "search", "inputSchema": {"type": "object", "additionalProperties": false, "required": ["q", "limit"],
     "properties": {"q": {"type": "string"}, "limit": {"type": ["integer", "null"]}}}}
    ```

    ## References
    openai-agents `agents/strict_schema.py` (ensure_strict_json_schema); seed 003 ("project the schema").
    """
    yield from _slot_rule(slot, ctx, "rewrite")


@rule("DEC005", "keyword-annotation-only", severity=Severity.INFO, scope="slot", profiled=True,
      fix="Express the intent with a keyword the target enforces")
def annotation_only(slot, ctx):
    """The target reads this keyword as an annotation only, with no effect on what is generated.

    ## What it does
    Reports keywords a selected profile marks `annotation` with an explanation, e.g.
    OpenAPI's `nullable` under llguidance: the decoder ignores it, so `null` is never
    generated although the author meant to allow it.

    ## Why is this bad?
    It is harmless to the request but the author's intent is lost; usually a JSON Schema
    spelling exists that the target does enforce.

    ## Example
    <!-- settings: {"profiles": ["llguidance"]} -->
    ```json
    {"name": "note", "inputSchema": {"type": "object", "properties": {"due": {"type": "string", "nullable": true}}}}
    ```

    ## Use instead
    <!-- settings: {"profiles": ["llguidance"]} -->
    ```json
    {"name": "note", "inputSchema": {"type": "object", "properties": {"due": {"type": ["string", "null"]}}}}
    ```

    ## References
    https://github.com/guidance-ai/llguidance/blob/main/docs/json_schema.md; llguidance 1.9.1 probe.
    """
    yield from _slot_rule(slot, ctx, "annotation")


@rule("DEC006", "schema-limit-exceeded", severity=Severity.ERROR, scope="slot", profiled=True,
      fix="Flatten or split the schema until it fits the target's limits")
def schema_limit(slot, ctx):
    """One schema exceeds a size limit of the target: nesting depth, properties, enum values, string budget.

    ## What it does
    Measures each schema slot as the profile counts it (object and array levels through
    `properties` and `items`; total properties; total enum values; characters of property
    names, definition names, enum and const values; one large string enum) and reports
    each limit exceeded.

    ## Why is this bad?
    The request fails (OpenAI: `6 levels of nesting exceeds limit of 5`) even though the
    schema is valid.

    ## Example
    <!-- settings: {"profiles": ["openai-strict"]} -->
    ```json
    {"name":"deep","inputSchema":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}}
    ```

    ## Use instead
    <!-- settings: {"profiles": ["openai-strict"]} -->
    ```json
    {"name":"deep","inputSchema":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}}
    ```

    ## References
    https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas (limits);
    https://github.com/tidyverse/ellmer/issues/671
    """
    yield from _slot_rule(slot, ctx, "limit")


@rule("DEC007", "tool-name-rejected-by-profile", severity=Severity.ERROR, scope="tool", profiled=True,
      fix="Rename the tool to fit the target's name rule")
def tool_name_rejected(tool, ctx):
    """The tool's name breaks the target's rule for function names (characters or length).

    ## What it does
    Checks the tool name against the profile's `tool_name.pattern` and `tool_name_length`
    limit (OpenAI: `^[a-zA-Z0-9_-]{1,64}$`; Gemini: starts with a letter or underscore,
    `. : -` allowed, at most 64; Anthropic: at most 128 characters).

    ## Why is this bad?
    MCP allows names these APIs refuse; the whole request fails. Clients that prefix tool
    names with the server name make long names longer still.

    ## Example
    <!-- settings: {"profiles": ["openai-strict"]} -->
    ```json
    {"name": "set alert", "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}}
    ```

    ## Use instead
    <!-- settings: {"profiles": ["openai-strict"]} -->
    ```json
    {"name": "set_alert", "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}}
    ```

    ## References
    https://github.com/Finerestaurant/kicad-mcp-python/issues/2; https://github.com/anthropics/claude-code/issues/96152
    """
    profile = ctx.profile
    if profile is None:
        return
    for e in _profiles().evaluate_tool(profile, tool):
        if e.subject in ("tool_name", "tool_name_length"):
            yield _emit(ctx, profile, e, Pointer(), tool.name)


@rule("DEC008", "tool-description-too-long", severity=Severity.ERROR, scope="tool", profiled=True,
      fix="Shorten the description to the target's limit")
def tool_description_too_long(tool, ctx):
    """The tool's description is longer than the target accepts.

    ## What it does
    Compares the length of `description` with the profile's `tool_description_length`
    limit (OpenAI: 1024 characters).

    ## Why is this bad?
    The request fails with `string_above_max_length`, taking every other tool with it.

    ## Example
    <!-- settings: {"profiles": ["openai-strict"]} -->
    ```yaml
    name: summarize
    description: "Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize."
    inputSchema: {type: object, properties: {}, additionalProperties: false}
    ```

    ## Use instead
    <!-- settings: {"profiles": ["openai-strict"]} -->
    ```json
    {"name": "summarize", "description": "Summarize a text.", "inputSchema": {"type": "object", "properties": {},
     "additionalProperties": false}}
    ```

    ## References
    https://github.com/getsentry/sentry-mcp/issues/106
    """
    profile = ctx.profile
    if profile is None:
        return
    for e in _profiles().evaluate_tool(profile, tool):
        if e.subject == "tool_description_length":
            yield _emit(ctx, profile, e, Pointer(), tool.name)


@rule("DEC009", "request-limit-exceeded", severity=Severity.ERROR, scope="document", profiled=True,
      fix="Offer fewer tools per request, or fewer optional/union parameters")
def request_limit(collection, ctx):
    """The server's tools together exceed a per-request limit of the target.

    ## What it does
    Counts over every tool of one tools/list result, as one request would carry them:
    the number of tools (OpenAI: 128), strict tools (Anthropic: 20), optional parameters
    (Anthropic: 24 across all strict schemas) and union-typed parameters (Anthropic: 16).

    ## Why is this bad?
    Each tool is fine on its own, yet the request that carries them all fails, e.g.
    `Invalid 'tools': array too long` or `The compiled grammar is too large`.

    ## Example
    <!-- settings: {"profiles": ["anthropic-strict"]} -->
    ```json
    {"tools": [{"name": "t", "inputSchema": {"type": "object", "additionalProperties": false, "properties": {
      "a1": {"type": "string"}, "a2": {"type": "string"}, "a3": {"type": "string"}, "a4": {"type": "string"},
      "a5": {"type": "string"}, "a6": {"type": "string"}, "a7": {"type": "string"}, "a8": {"type": "string"},
      "a9": {"type": "string"}, "b1": {"type": "string"}, "b2": {"type": "string"}, "b3": {"type": "string"},
      "b4": {"type": "string"}, "b5": {"type": "string"}, "b6": {"type": "string"}, "b7": {"type": "string"},
      "b8": {"type": "string"}, "b9": {"type": "string"}, "c1": {"type": "string"}, "c2": {"type": "string"},
      "c3": {"type": "string"}, "c4": {"type": "string"}, "c5": {"type": "string"}, "c6": {"type": "string"},
      "c7": {"type": "string"}}}}]}
    ```

    ## Use instead
    <!-- settings: {"profiles": ["anthropic-strict"]} -->
    ```json
    {"tools": [{"name": "t", "inputSchema": {"type": "object", "additionalProperties": false,
      "properties": {"a1": {"type": "string"}}}}]}
    ```

    ## References
    https://platform.claude.com/docs/en/build-with-claude/structured-outputs (complexity limits);
    https://github.com/zed-industries/zed/issues/32946
    """
    profile = ctx.profile
    if profile is None:
        return
    for e in _profiles().evaluate_request(profile, collection.tools, tuple(collection.container)):
        yield _emit(ctx, profile, e, Pointer(), None)
