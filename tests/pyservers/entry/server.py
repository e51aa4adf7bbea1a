"""The entry point's server: built inside main(), which takes a click-style argument."""
from mcp.server.mcpserver import MCPServer


def main(port: int = 8000) -> int:
    server = MCPServer("entry")
    server.run()
    return 0
