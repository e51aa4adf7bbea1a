"""fastmcp 3+ keeps every version of a tool (`@mcp.tool(version=...)`); tools/list sends the highest."""
from fastmcp import FastMCP

mcp = FastMCP("versions")


@mcp.tool(version="1.0")
def calc(x: int) -> int:
    """Version 1."""
    return x


@mcp.tool(version="2.0")
def calc(x: int, y: int = 0) -> int:  # noqa: F811
    """Version 2."""
    return x + y
