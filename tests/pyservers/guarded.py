"""Builds its server only when run as a script."""
from mcp.server.mcpserver import MCPServer

if __name__ == "__main__":
    server = MCPServer("guarded")
    server.run()
