"""MCP: the members a 2026-07-28 ``tools/list`` result carries besides ``tools`` (MCP128,
MCP129): the caching hints ``ttlMs`` and ``cacheScope`` and the ``resultType`` every Result has."""

from __future__ import annotations

from ...collect import list_result
from ...model import Severity
from ...registry import rule
from .common import V2026, kind


@rule("MCP128", "missing-list-result-member", severity=Severity.ERROR, scope="document", versions=frozenset({V2026}),
      fix_safety="safe", fix_note="`resultType: \"complete\"` is what a missing one means",
      fix='Add "resultType": "complete", "ttlMs" and "cacheScope" to the tools/list result')
def missing_list_result_member(collection, ctx):
    """A 2026-07-28 tools/list result lacks `resultType`, `ttlMs` or `cacheScope`.

    ## What it does
    For a `tools/list` result (bare or inside a JSON-RPC response) checked for
    2026-07-28, reports a missing `ttlMs` or `cacheScope` (errors) and a missing
    `resultType` (a warning: clients treat its absence as `"complete"`). A file that names
    no protocol version and has none of the three reads as an older version's result: it
    gets one information finding instead.

    ## Why is this bad?
    In 2026-07-28 servers MUST include caching hints on complete `tools/list` results and
    every Result carries `resultType`; all four members are required by the schema.
    Without `ttlMs`/`cacheScope` a client cannot cache the list correctly and a strict
    client rejects the result. Results captured from a 2025-11-25 server never have them.

    ## Example
    ```json
    {"tools": [{"name": "search", "inputSchema": {"type": "object"}}]}
    ```

    ## Use instead
    ```json
    {"resultType": "complete", "ttlMs": 300000, "cacheScope": "public",
     "tools": [{"name": "search", "inputSchema": {"type": "object"}}]}
    ```

    ## References
    MCP 2026-07-28 schema.ts `ListToolsResult`/`CacheableResult` and server/utilities/caching.mdx
    (servers MUST include caching hints on complete tools/list results).
    """
    result = list_result(collection)
    if result is None:
        return
    if collection.assumed and not any(m in result for m in ("resultType", "ttlMs", "cacheScope")):
        # A file that names no version and has none of the three reads as an older version's result:
        # their absence is what tells it apart, so this is information, never a reason to fail the run.
        yield ctx.finding(collection.container,
                          "tools/list result has none of resultType, ttlMs and cacheScope, which every 2026-07-28 "
                          "list result carries: it reads as an older version's result",
                          severity=Severity.INFO,
                          fix="If it is a 2026-07-28 result, add \"resultType\": \"complete\", \"ttlMs\" and "
                              "\"cacheScope\"; otherwise name its version (--protocol-version)")
        return
    missing = [m for m in ("ttlMs", "cacheScope") if m not in result]
    if missing:
        yield ctx.finding(collection.container,
                          f"tools/list result has no {' or '.join(missing)}; 2026-07-28 servers MUST send the caching "
                          "hints ttlMs and cacheScope, and clients that validate the result reject it",
                          fix="Add \"ttlMs\" (milliseconds the list may be cached, >= 0) and \"cacheScope\" "
                              "(\"public\" or \"private\")")
    if "resultType" not in result:
        yield ctx.finding(collection.container,
                          "tools/list result has no resultType; 2026-07-28 clients treat a missing one as "
                          "\"complete\", but every Result carries it",
                          severity=Severity.WARNING,
                          fix='Add "resultType": "complete"',
                          patch=[{"op": "add", "path": str(collection.container / "resultType"), "value": "complete"}])


@rule("MCP129", "invalid-list-result-member", severity=Severity.ERROR, scope="document", versions=frozenset({V2026}),
      fix='Use a string resultType, an integer ttlMs >= 0 and cacheScope "public" or "private"')
def invalid_list_result_member(collection, ctx):
    """A 2026-07-28 tools/list result has a malformed `resultType`, `ttlMs` or `cacheScope`.

    ## What it does
    Reports a `resultType` that is not a string or is not `"complete"` (`"input_required"`:
    tools/list has no input-required result), a `ttlMs` that is not an integer >= 0, and a
    `cacheScope` other than `"public"` or `"private"`.

    ## Why is this bad?
    Clients use these to decide how long and for whom to cache the tool list; a
    negative or fractional TTL or an unknown scope makes a strict client reject the
    result and a lenient one cache it wrongly (e.g. a private list shared between users).

    ## Example
    ```json
    {"resultType": "complete", "ttlMs": -1, "cacheScope": "shared",
     "tools": [{"name": "search", "inputSchema": {"type": "object"}}]}
    ```

    ## Use instead
    ```json
    {"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
     "tools": [{"name": "search", "inputSchema": {"type": "object"}}]}
    ```

    ## References
    MCP 2026-07-28 schema.json `ListToolsResult` (`ttlMs`: integer, minimum 0; `cacheScope`:
    "public" | "private"), `ResultType`, and the `*ResultResponse` types (an `InputRequiredResult`
    answers only tools/call, prompts/get and resources/read).
    """
    result = list_result(collection)
    if result is None:
        return
    ptr = collection.container
    if "resultType" in result and not isinstance(result["resultType"], str):
        yield ctx.finding(ptr / "resultType", f"resultType is {kind(result['resultType'])}; it must be a string "
                                              "such as \"complete\"")
    elif result.get("resultType", "complete") != "complete":
        yield ctx.finding(ptr / "resultType", f"resultType is {result['resultType']!r}; a tools/list result is "
                                              "always complete (2026-07-28 allows an InputRequiredResult only for "
                                              "tools/call, prompts/get and resources/read), and a client that reads "
                                              "resultType takes no tools from this one",
                          fix='Send the tools with "resultType": "complete"')
    if "ttlMs" in result:
        t = result["ttlMs"]
        ok = isinstance(t, int) and not isinstance(t, bool) or isinstance(t, float) and t.is_integer()
        if not ok or t < 0:
            yield ctx.finding(ptr / "ttlMs", f"ttlMs is {t!r}; it must be an integer number of milliseconds >= 0")
    if "cacheScope" in result and result["cacheScope"] not in ("public", "private"):
        yield ctx.finding(ptr / "cacheScope", f"cacheScope is {result['cacheScope']!r}; it must be \"public\" or "
                                              "\"private\"")
