"""A fastmcp server of a prompt and a resource template, and no tool."""
from fastmcp import FastMCP
mcp = FastMCP("p")
@mcp.prompt()
def review(code: str) -> str:
    return code
@mcp.resource("users://{uid}/profile")
def profile(uid: str) -> str:
    return uid
