"""Raises while it is imported."""
from mcp.server.mcpserver import MCPServer

server = MCPServer("broken")


def load_settings():
    raise KeyError("DATABASE_URL")


SETTINGS = load_settings()
