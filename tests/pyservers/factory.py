"""Builds its server inside a function: no module-level server object to find."""
from mcp.server.mcpserver import MCPServer


def create_server() -> MCPServer:
    return MCPServer("factory")
