"""SEC110-SEC113: the regular expressions of `pattern` and `patternProperties` keys, compiled
as ECMA-262 (with and without the `u` flag), analysed for catastrophic backtracking, and bounded
in length."""

from __future__ import annotations

from ...model import Severity
from ...redos import analyse, validity
from ...registry import rule
from .common import _bound_msg, analysis

def _patterns(slot, ctx):
    a = analysis(slot, ctx.bounds)
    if a.truncated:  # SEC106 reported; the slot is not examined further
        return
    limit = ctx.bounds.max_pattern_length
    for ptr, text, is_key in a.patterns:
        yield ptr, text, is_key, len(text) > limit


# Backtracking analysis costs up to ~40 ms for a hostile 1,000-character expression, so a
# file gets a budget of distinct expression text to analyse: ANALYSIS_BUDGET times the
# pattern-length bound. Past it, SEC112 says so once per slot instead of going quiet.
ANALYSIS_BUDGET = 16
_SPENT: list = [None, set(), 0]  # document, patterns analysed, characters spent


def _analysable(doc, text: str, limit: int) -> bool:
    if _SPENT[0] is not doc:
        _SPENT[:] = [doc, set(), 0]
    if text in _SPENT[1]:
        return True
    if _SPENT[2] + len(text) > ANALYSIS_BUDGET * limit:
        return False
    _SPENT[1].add(text)
    _SPENT[2] += len(text)
    return True


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
      requires="pattern",
      fix="Make the repetition unambiguous: no quantifier around a group that itself repeats, alternatives "
          "that cannot start with the same character; bound the lengths ({1,64})")
def redos_pattern(slot, ctx):
    """A regular expression is prone to catastrophic backtracking (ReDoS).

    ## What it does
    Analyses each `pattern` and `patternProperties` key for the shapes that make a
    backtracking matcher (JavaScript's, Python's, Java's...) take exponential time on a
    failing input, nested quantifiers such as `(a+)+` or `(\\w+\\s?)*` and overlapping
    alternatives under a quantifier such as `(a|aa)*`, and polynomial time, such as
    `\\d+\\d+` (reported as polynomial in the message).

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
    limit = ctx.bounds.max_pattern_length
    for ptr, text, is_key, too_long in _patterns(slot, ctx):
        if too_long or not validity(text).ok or not _analysable(slot.tool.doc, text, limit):
            continue
        risk = analyse(text)
        if risk is not None:
            yield ctx.finding(slot.pointer + ptr,
                              f"{_what(is_key)} {text!r} can take {risk.kind} time on a backtracking matcher: "
                              f"{risk.why}; a short crafted argument can stall the validator")


@rule("SEC112", "excessive-pattern-length", severity=Severity.ERROR, scope="slot",
      requires="pattern",
      fix="Shorten the expression (validate structure in the tool instead) or raise bounds.max-pattern-length")
def excessive_pattern_length(slot, ctx):
    """A regular expression is longer than the configured bound.

    ## What it does
    Reports each `pattern` value or `patternProperties` key longer than
    `bounds.max-pattern-length` characters. Such expressions are not compiled or
    analysed further. Also reported, once per schema at the slot, when the file's
    distinct expressions together pass 16 times that bound: the backtracking analysis
    (SEC111) stops there, so its silence would otherwise mislead.

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
    over_budget = False
    for ptr, text, is_key, too_long in _patterns(slot, ctx):
        if too_long:
            yield ctx.finding(slot.pointer + ptr,
                              _bound_msg(f"this {_what(is_key)} is", f"{len(text)} characters long", limit,
                                         "max-pattern-length", "it was neither compiled nor analysed"))
        elif not over_budget and not _analysable(slot.tool.doc, text, limit):
            over_budget = True
            yield ctx.finding(slot.pointer,
                              f"the regular expressions of this file add up to more than "
                              f"{ANALYSIS_BUDGET * limit} distinct characters ({ANALYSIS_BUDGET} x "
                              "bounds.max-pattern-length); those in this schema past that were not analysed "
                              "for catastrophic backtracking")


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
