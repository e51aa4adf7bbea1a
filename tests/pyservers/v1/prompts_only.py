"""An mcp 1.x FastMCP server of a prompt and a resource, and no tool."""
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("p")
@mcp.prompt()
def review(code: str) -> str:
    return code
@mcp.resource("config://app")
def config() -> str:
    return "{}"
