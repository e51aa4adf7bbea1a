"""PRB: the stdio channel itself: what the server wrote to stdout besides JSON-RPC, and whether
it exits when the client closes its input."""

from __future__ import annotations

from ...model import Severity
from ...registry import rule
from .common import clip, transcript_of


@rule("PRB101", "stdout-noise", severity=Severity.ERROR, scope="document", per_version=True,
      fix="Write logs and diagnostics to stderr; keep stdout for JSON-RPC messages only")
def stdout_noise(collection, ctx):
    """The server wrote lines to stdout that are not JSON-RPC messages.

    ## What it does
    Counts the lines a stdio server wrote to its stdout that do not parse as a JSON-RPC
    message (an object), such as log lines, banners or progress bars, and shows the first;
    a message whose `id` is an object, an array or a boolean counts too (MCP ids are strings
    or integers), since no client can match it to a request.

    ## Why is this bad?
    On the stdio transport stdout is the protocol channel: the server writes only MCP
    messages there, one per line, and logs to stderr. A client that meets a log line on
    stdout may drop the connection, or skip a response glued to the noise. Logging to
    stdout is one of the most common bugs of stdio servers (a `print()` left in, a
    library that logs to stdout by default).

    ## Example
    ```json
    {"transport": "stdio", "stdoutNoise": ["INFO server starting on stdio"], "stdoutNoiseCount": 1,
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}}]}
    ```

    ## Use instead
    ```json
    {"transport": "stdio", "stdoutNoise": [], "stdoutNoiseCount": 0,
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}}]}
    ```

    ## References
    MCP transports, stdio (every revision): the server MUST NOT write anything to its stdout
    that is not a valid MCP message; it MAY write UTF-8 strings to stderr for logging.
    """
    t = transcript_of(collection, ctx)
    if not t or not t.get("stdoutNoiseCount"):
        return
    n = t["stdoutNoiseCount"]
    first = (t.get("stdoutNoise") or [""])[0]
    if t.get("transport") in ("http", "sse"):
        yield ctx.finding(collection.container, f"the server sent {n} SSE event{'s' * (n != 1)} whose data is not a JSON-RPC message "
                                f"(first: {clip(first)!r}); every data payload must be one MCP message")
        return
    yield ctx.finding(collection.container, f"the server wrote {n} line{'s' * (n != 1)} to stdout that are not JSON-RPC messages "
                            f"(first: {clip(first)!r}); on stdio, stdout carries only MCP messages and a client "
                            "may drop the connection on anything else")


@rule("PRB113", "ignores-shutdown", severity=Severity.WARNING, scope="document", per_version=True,
      fix="Exit when stdin closes, and on SIGTERM")
def ignores_shutdown(collection, ctx):
    """The stdio server did not exit when its stdin closed, nor on SIGTERM.

    ## What it does
    After probing, mcplint shuts the server down the way the spec describes: close its
    stdin, wait, send SIGTERM, wait, and only then SIGKILL. This rule reports a server
    that had to be killed with SIGKILL.

    ## Why is this bad?
    Hosts start and stop stdio servers many times a day. A server that ignores both the
    end of its input and SIGTERM is left running (or is killed without cleaning up
    temporary files, locks and child processes), and accumulates as orphans on the
    user's machine.

    ## Example
    ```json
    {"transport": "stdio", "shutdown": "killed", "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}}]}
    ```

    ## Use instead
    ```json
    {"transport": "stdio", "shutdown": "exited", "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}}]}
    ```

    ## References
    MCP lifecycle, shutdown over stdio (every revision): the client closes the server's
    input stream, waits for it to exit, sends SIGTERM if it does not, and SIGKILL if it
    still does not.
    """
    t = transcript_of(collection, ctx)
    if t and t.get("shutdown") == "killed":
        yield ctx.finding(collection.container, "the server did not exit when its stdin was closed, nor on SIGTERM, and had to be "
                                "killed: hosts that stop it leave it running or kill it without cleanup")
