"""A factory that needs an argument, as the reference servers' create_server(local_tz) does."""
from mcp.server.mcpserver import MCPServer


def create_server(local_tz: str, strict: bool = False) -> MCPServer:
    server = MCPServer("clock")

    @server.tool(description=f"The time now, in {local_tz} unless told otherwise.")
    def now(timezone: str = local_tz) -> str:
        return timezone

    return server
