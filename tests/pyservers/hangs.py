"""Waits forever on import (a server started at module level)."""
import time

from mcp.server.mcpserver import MCPServer

server = MCPServer("hangs")
while True:
    time.sleep(0.05)
