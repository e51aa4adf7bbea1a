"""A server whose tools are registered at start-up only: nothing is listed after import."""
from mcp.server.mcpserver import MCPServer

mcp = MCPServer("later")


def main() -> None:
    @mcp.tool()
    def echo(text: str) -> str:
        return text

    mcp.run()
