"""A server of prompts and resources, by design: it registers no tool."""
from mcp.server.mcpserver import MCPServer

mcp = MCPServer("prompts")


@mcp.prompt()
def review(code: str) -> str:
    return f"Review this code:\n{code}"


@mcp.resource("config://app")
def config() -> str:
    return "{}"


@mcp.resource("users://{user_id}/profile")
def profile(user_id: str) -> str:
    return user_id
