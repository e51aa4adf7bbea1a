"""SEC110-SEC113: the regular expressions of `pattern` and `patternProperties` keys, compiled
as ECMA-262 (with and without the `u` flag), analysed for catastrophic backtracking, and bounded
in length."""

from __future__ import annotations

from ...model import Severity
from ...redos import analysis as backtracking, validity
from ...registry import rule
from .common import bound_message, shared_analysis

def _patterns(slot, ctx):
    a = shared_analysis(slot, ctx)
    if a.truncated:  # SEC106 reported; the slot is not examined further
        return
    limit = ctx.bounds.max_pattern_length
    for ptr, text, is_key in a.patterns:
        yield ptr, text, is_key, len(text) > limit


def _analysed(text: str, too_long: bool):
    """The backtracking analysis of one expression, or None when it is not for SEC111/SEC112
    to analyse (too long: SEC112 says so; invalid: SEC110 does). Every expression gets the
    same step budget (STEP_BUDGET), so a file with many expressions is analysed in full."""
    if too_long or not validity(text).ok:
        return None
    return backtracking(text)


def _what(is_key: bool) -> str:
    return "patternProperties key" if is_key else "pattern"


@rule("SEC110", "invalid-pattern", severity=Severity.ERROR, scope="slot",
      requires="pattern",
      fix="Rewrite the expression in ECMA-262 syntax (e.g. (?<name>...) rather than (?P<name>...), no inline "
          "flags such as (?i))")
def invalid_pattern(slot, ctx):
    """A `pattern` or `patternProperties` key is not a valid ECMA-262 regular expression.

    ## What it does
    Compiles each `pattern` value and `patternProperties` key with an ECMA-262 engine
    (the dialect JSON Schema prescribes, not Python's or PCRE) and reports those that do
    not compile.

    ## Why is this bad?
    Validators throw when compiling the schema, so the tool is rejected; lenient ones
    drop the constraint. Python- and PCRE-only syntax (`(?P<name>...)`, `(?i)`,
    possessive quantifiers) is the usual cause: it works in the server's tests and
    fails in JavaScript clients.

    ## Example
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"code": {"type": "string",
     "pattern": "(?i)^[a-z]{3}$"}}}}
    ```

    ## Use instead
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"code": {"type": "string",
     "pattern": "^[a-zA-Z]{3}$"}}}}
    ```

    ## References
    JSON Schema 2020-12 Validation §6.3.3 and Core §6.4 (regular expressions are
    ECMA-262); JSON Structure MCP binding §10 (patterns come from an untrusted source).
    """
    for ptr, text, is_key, too_long in _patterns(slot, ctx):
        if too_long:
            continue
        v = validity(text)
        if not v.ok:
            yield ctx.finding(slot.pointer + ptr,
                              f"{_what(is_key)} {text!r} is not a valid ECMA-262 regular expression ({v.error}); "
                              "validators fail to compile the schema or drop the constraint")


@rule("SEC111", "redos-pattern", severity=Severity.WARNING, scope="slot",
      fix_safety="safe", fix_note="the merged repetition accepts exactly the same strings",
      requires="pattern",
      fix="Make the repetition unambiguous: no quantifier around a group that itself repeats, alternatives "
          "that cannot start with the same character; bound the lengths ({1,64})")
def redos_pattern(slot, ctx):
    """A regular expression is prone to catastrophic backtracking (ReDoS).

    ## What it does
    Analyses each `pattern` and `patternProperties` key for two repetitions that can
    take the same text, with something after them that can still fail. A backtracking
    matcher (JavaScript's, Python's, Java's...) then tries every way of sharing the text
    between them. Exponential: the two meet again on each turn of an enclosing repetition
    (`(a+)+`, `(\\w+\\s?)*`, `([a-z]+?\\.[a-z]+)+%`), alternatives under a repetition
    overlap (`(a|aa)*`), or a large count repeats something optional (`(a?){25}`).
    Polynomial, with the degree: repetitions in a row (`^\\d+([.,]?\\d+)?$`,
    `^\\S+@\\S+\\.\\S+$`), or one the unanchored search enters at every position (`\\s*$`).
    The message gives an attack string; where merging the repetitions is mechanical
    (`(a+)+` -> `a+`, `\\d+\\d+` -> `\\d{2,}`) the fix is that expression.

    ## Why is this bad?
    The pattern comes from the server but runs in the client and the server's
    validator, on arguments a model (or an attacker steering it) writes: a 30-character
    argument can pin a CPU for minutes. Binding §10 requires a non-exponential matcher
    or a time bound; most JSON Schema validators have neither.

    ## Example
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"slug": {"type": "string",
     "pattern": "^([a-z0-9]+-?)+$"}}}}
    ```

    ## Use instead
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"slug": {"type": "string",
     "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"}}}}
    ```

    ## References
    JSON Structure MCP binding §10 (a pattern is a regular expression from an untrusted
    source: non-exponential matcher or time bound); OWASP, "Regular expression Denial of
    Service - ReDoS".
    """
    for ptr, text, is_key, too_long in _patterns(slot, ctx):
        out = _analysed(text, too_long)
        risk = out.risk if out else None
        if risk is None:
            continue
        degree = f" (degree {risk.degree})" if risk.kind == "polynomial" and risk.degree else ""
        msg = (f"{_what(is_key)} {text!r} can take {risk.kind} time{degree} on a backtracking matcher: "
               f"{risk.why}; a crafted argument stalls the validator, e.g. {risk.attack}")
        at = slot.pointer + ptr
        if not risk.rewrite:
            yield ctx.finding(at, msg)
            continue
        patch = ([{"op": "move", "from": str(at), "path": str(at.parent / risk.rewrite)}] if is_key
                 else [{"op": "replace", "path": str(at), "value": risk.rewrite}])
        yield ctx.finding(at, msg, fix=f"Use the equivalent unambiguous expression {risk.rewrite!r}", patch=patch)


@rule("SEC112", "excessive-pattern-length", severity=Severity.ERROR, scope="slot",
      requires="pattern",
      fix="Shorten the expression (validate structure in the tool instead) or raise bounds.max-pattern-length")
def excessive_pattern_length(slot, ctx):
    """A regular expression is longer than the configured bound.

    ## What it does
    Reports each `pattern` value or `patternProperties` key longer than
    `bounds.max-pattern-length` characters. Such expressions are not compiled or
    analysed further. Also reports each expression the backtracking analysis (SEC111)
    gave up on, because it passed its per-expression step budget or could not be read,
    so that SEC111's silence about it does not mislead.

    ## Why is this bad?
    Compiling and matching cost grows with the expression; binding §10 treats patterns
    as untrusted input that implementations must bound. Real tool schemas use short
    expressions; a huge one is a generated blob or an attack.

    ## Example
    <!-- settings: {"bounds": {"max-pattern-length": 10}} -->
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"d": {"type": "string",
     "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}}}}
    ```

    ## Use instead
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"d": {"type": "string",
     "format": "date"}}}}
    ```

    ## References
    JSON Structure MCP binding §10 (bound schema processing; patterns are untrusted).
    """
    limit = ctx.bounds.max_pattern_length
    for ptr, text, is_key, too_long in _patterns(slot, ctx):
        if too_long:
            yield ctx.finding(slot.pointer + ptr,
                              bound_message(f"this {_what(is_key)} is", f"{len(text)} characters long", limit,
                                         "max-pattern-length", "it was neither compiled nor analysed"))
            continue
        out = _analysed(text, too_long)
        if out is not None and out.gave_up:
            yield ctx.finding(slot.pointer + ptr,
                              f"{_what(is_key)} {text!r} was not analysed for catastrophic backtracking: "
                              f"{out.gave_up}; SEC111's silence about it means nothing",
                              fix="Simplify the expression (fewer nested groups and alternatives), or check it "
                                  "with a dedicated ReDoS checker")


@rule("SEC113", "non-unicode-pattern", severity=Severity.WARNING, scope="slot",
      requires="pattern",
      fix="Remove escapes of characters that need none (\\_ -> _, \\- outside a class -> -) and escape "
          "literal braces (\\{)")
def non_unicode_pattern(slot, ctx):
    r"""A regular expression is valid only without ECMA-262's `u` (Unicode) flag.

    ## What it does
    Reports a `pattern` or `patternProperties` key that compiles as plain ECMA-262 but
    not with the `u` flag, typically because of a needless escape (`\_`, `\@`) or a
    lone brace (`a{`).

    ## Why is this bad?
    JSON Schema 2020-12 says regular expressions SHOULD be compiled with the `u` flag,
    and widely used validators (Ajv's default `unicodeRegExp: true`) do: they fail to
    compile this schema, while other clients accept it. The same tool works in one
    client and is rejected by another.

    ## Example
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"id": {"type": "string",
     "pattern": "^[a-z]+\\_[0-9]+$"}}}}
    ```

    ## Use instead
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"id": {"type": "string",
     "pattern": "^[a-z]+_[0-9]+$"}}}}
    ```

    ## References
    JSON Schema 2020-12 Core §6.4 (regular expressions SHOULD be built with the "u"
    flag); Ajv options: unicodeRegExp defaults to true (https://ajv.js.org/options.html,
    seen 2026-11-30).
    """
    for ptr, text, is_key, too_long in _patterns(slot, ctx):
        if too_long:
            continue
        v = validity(text)
        if v.ok and not v.unicode_ok:
            yield ctx.finding(slot.pointer + ptr,
                              f"{_what(is_key)} {text!r} is valid ECMA-262 only without the u flag "
                              f"({v.unicode_error} with it); validators that use u, as JSON Schema recommends, "
                              "reject the schema")
