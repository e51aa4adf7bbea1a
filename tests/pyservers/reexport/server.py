"""A package's server, re-exported by its __init__.py and by main.py."""
from mcp.server.mcpserver import MCPServer

mcp = MCPServer("reexport")


@mcp.tool()
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b
