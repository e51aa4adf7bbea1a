"""Imports the package's server and adds a tool to it, which server.py alone does not list."""
from .server import mcp


@mcp.tool()
def extra(query: str) -> str:
    """Search."""
    return query
