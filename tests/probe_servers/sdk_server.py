"""A server built with the official MCP Python SDK (mcp 2.x ``MCPServer``, formerly
FastMCP), probed end to end over stdio by the tests and the benchmark."""

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

app = MCPServer("sdk-example")


@app.tool(annotations=ToolAnnotations(readOnlyHint=True))
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@app.tool()
def shout(text: str) -> str:
    """Upper-case a text (not marked read-only: never called without --call-all)."""
    return text.upper()


if __name__ == "__main__":
    import sys

    if "--http" in sys.argv:  # --http PORT: Streamable HTTP on 127.0.0.1:PORT/mcp
        app.run("streamable-http", host="127.0.0.1", port=int(sys.argv[sys.argv.index("--http") + 1]))
    else:
        app.run()
