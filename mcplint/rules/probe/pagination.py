"""PRB: walking ``tools/list``: cursors that loop, the page limit, names repeated across pages,
and a listing that failed."""

from __future__ import annotations

from ...model import ROOT, Pointer, Severity
from ...registry import rule
from ...probe.transcript import good_page, incomplete_type, page_message, page_tools
from .common import clip, handshake_result, transcript_of


@rule("PRB103", "cursor-loop", severity=Severity.ERROR, scope="document", per_version=True,
      fix="Return a fresh cursor for each page and omit nextCursor on the last page")
def cursor_loop(collection, ctx):
    """tools/list pagination hands back a cursor it already gave.

    ## What it does
    Follows `nextCursor` through every page of `tools/list` and reports a cursor that comes
    back a second time. The probe stops there, so the loop is bounded.

    ## Why is this bad?
    A client that follows `nextCursor` until it is absent, as the spec tells it to, never
    finishes: it fetches the same pages forever, or gives up and shows a partial list.
    The usual causes are a cursor that encodes the page size instead of the offset, or
    one that is never advanced.

    ## Example
    ```json
    {"cursorLoop": "page-2",
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [], "nextCursor": "page-2"}}},
               {"message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": [], "nextCursor": "page-2"}}}]}
    ```

    ## Use instead
    ```json
    {"cursorLoop": null,
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [], "nextCursor": "page-2"}}},
               {"message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": []}}}]}
    ```

    ## References
    MCP utilities, pagination (every revision): `nextCursor` is present when more results
    exist; its absence ends the list; cursors are opaque tokens.
    """
    t = transcript_of(collection, ctx)
    if not t or t.get("cursorLoop") is None:
        return
    n = len(t.get("pages") or [])
    yield ctx.finding(ROOT, f"tools/list returned the cursor {clip(str(t['cursorLoop']), 40)!r} a second time "
                            f"(after {n} pages): a client following nextCursor never reaches the end of the list")


@rule("PRB104", "page-limit-reached", severity=Severity.WARNING, scope="document", per_version=True,
      fix="Use larger pages, and make sure the last page has no nextCursor")
def page_limit_reached(collection, ctx):
    """tools/list was still returning a next page when the probe's page limit was reached.

    ## What it does
    Reports a `tools/list` that kept returning new cursors past the probe's page limit
    (500 pages). Tools on later pages were not fetched and not checked.

    ## Why is this bad?
    Either the list is endless (a cursor that never runs out, a generator gone wrong) or it
    is split into so many tiny pages that clients pay hundreds of round trips before they
    can show a single tool. Clients bound pagination too, and will show a truncated list.

    ## Example
    ```json
    {"pageLimit": 500, "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [], "nextCursor": "501"}}}]}
    ```

    ## Use instead
    ```json
    {"pageLimit": null, "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}}]}
    ```

    ## References
    MCP utilities, pagination (every revision): clients follow `nextCursor` until it is
    absent. Issue "mcplint probe": pagination is followed over all pages, bounded.
    """
    t = transcript_of(collection, ctx)
    if not t or not t.get("pageLimit"):
        return
    yield ctx.finding(ROOT, f"tools/list still returned nextCursor after {t['pageLimit']} pages; the probe stopped "
                            "there, so tools on later pages were not checked")


@rule("PRB105", "duplicate-name-across-pages", severity=Severity.ERROR, scope="document", per_version=True,
      fix="Make pages disjoint: each tool on exactly one page")
def duplicate_name_across_pages(collection, ctx):
    """The same tool name is listed on two different pages of tools/list.

    ## What it does
    Joins the pages of a paginated `tools/list` and reports every tool whose name was
    already listed on an earlier page.

    ## Why is this bad?
    A tool is identified by its name. When two pages both list it (often an off-by-one in
    the page offset, or a list that changed between pages) a client either keeps one of
    the two definitions at random or shows the tool twice; if the definitions differ, the
    model may call it with the wrong schema.

    ## Example
    ```json
    {"pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [
                 {"name": "search", "inputSchema": {"type": "object"}}], "nextCursor": "1"}}},
               {"message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": [
                 {"name": "search", "inputSchema": {"type": "object"}}]}}}]}
    ```

    ## Use instead
    ```json
    {"pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [
                 {"name": "search", "inputSchema": {"type": "object"}}], "nextCursor": "1"}}},
               {"message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": [
                 {"name": "fetch", "inputSchema": {"type": "object"}}]}}}]}
    ```

    ## References
    MCP server tools (every revision): each tool is uniquely identified by its name; MCP
    utilities, pagination.
    """
    t = transcript_of(collection, ctx)
    if not t:
        return
    first: dict = {}
    for i, page, tool in page_tools(t):
        name = tool.get("name") if isinstance(tool, dict) else None
        if not isinstance(name, str):
            continue
        if name in first and first[name] != page:
            yield ctx.finding(Pointer(("tools", i, "name")),
                              f"tool {name!r} on page {page + 1} was already listed on page {first[name] + 1}: "
                              "clients keep one of the two definitions, or show the tool twice")
        first.setdefault(name, page)


@rule("PRB106", "tools-list-error", severity=Severity.ERROR, scope="document", per_version=True,
      fix="Make tools/list succeed for every page it advertises")
def tools_list_error(collection, ctx):
    """tools/list answered with an error, or with something that is not a complete list of tools.

    ## What it does
    Reports a `tools/list` request (any page) that returned a JSON-RPC error, a result
    whose `tools` is missing or not an array, or a result whose `resultType` is not
    `"complete"` (such as `"input_required"`). Tools on pages before the failure are still
    linted; nothing is reported about a result the server did not send. A server that
    declares no `tools` capability and answers `-32601` (method not found) offers no tools:
    that is said as a warning, since it is what the spec asks of such a server.

    ## Why is this bad?
    A server that declares the `tools` capability must answer `tools/list`. A failing
    first page leaves the client with no tools at all; a failing later page leaves it with
    a truncated list and no sign of what is missing. `tools/list` has no input-required
    result: 2026-07-28 allows an `InputRequiredResult` only for `tools/call`, `prompts/get`
    and `resources/read`, so a client that reads `resultType` takes no tools from the page.

    ## Example
    ```json
    {"pages": [{"message": {"jsonrpc": "2.0", "id": 2, "error": {"code": -32603, "message": "database unavailable"}}}]}
    ```

    ## Use instead
    ```json
    {"pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}}]}
    ```

    ## References
    MCP server tools, listing tools (every revision): `ListToolsResult` requires `tools`;
    MCP 2026-07-28 schema `ResultType` and the `*ResultResponse` types (which requests may
    answer with an `InputRequiredResult`); JSON-RPC 2.0 error `-32601` (method not found).
    """
    t = transcript_of(collection, ctx)
    if not t:
        return
    for n, page in enumerate(t.get("pages") or []):
        msg = page_message(page)
        if good_page(msg):
            continue
        after = "; later pages were not fetched" if n else "; no tools could be listed"
        if isinstance(msg, dict) and isinstance(msg.get("error"), dict):
            err = msg["error"]
            what = f"error {err.get('code')!r}: {clip(str(err.get('message')))!r}"
            if n == 0 and err.get("code") == -32601:
                declared = _declares_tools(t)
                if declared is False:
                    yield ctx.finding(ROOT, "the server declares no tools capability and answers tools/list with "
                                            f"error -32601 (method not found: {clip(str(err.get('message')))!r}): it "
                                            "offers no tools, so there is nothing to lint", severity=Severity.WARNING,
                                      fix="Nothing to fix if the server has no tools; otherwise declare \"tools\": {} "
                                          "in its capabilities and serve tools/list")
                    return
                if declared:
                    what += " (method not found), although the server declares the tools capability"
        elif incomplete_type(msg) is not None:
            what = (f"resultType {clip(incomplete_type(msg))!r} instead of a complete result: tools/list cannot "
                    "ask for input (MCP 2026-07-28 allows an InputRequiredResult only for tools/call, prompts/get "
                    "and resources/read), and a client that reads resultType takes no tools from it")
        elif isinstance(msg, dict) and isinstance(msg.get("result"), dict):
            what = "a result without a \"tools\" array"
        else:
            what = "a response that is neither a result nor an error"
        yield ctx.finding(ROOT, f"tools/list page {n + 1} failed with {what}{after}")


def _declares_tools(t: dict) -> bool | None:
    """Does the handshake declare the tools capability (None: no capabilities to read)?"""
    _, res = handshake_result(t)
    caps = res.get("capabilities") if res is not None else None
    return "tools" in caps if isinstance(caps, dict) else None
