"""Servers built by functions (official SDK, mcp 2): found only when named, as
`fastmcp run factories.py:create_server` names one. Nothing here runs at import."""
from typing import Optional

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field

settings = {"name": "inventory"}


class Item(BaseModel):
    sku: str = Field(max_length=12)
    quantity: int = 1


def create_server() -> MCPServer:
    server = MCPServer(settings["name"])

    @server.tool()
    def restock(item: Item, warehouse: Optional[str] = None) -> str:
        """Restock an item."""
        return "ok"

    return server


async def make_app():
    app = MCPServer("async-inventory")

    @app.tool()
    async def count(sku: str) -> int:
        """Count an item."""
        return 0

    return app


def build(name: str) -> MCPServer:
    return MCPServer(name)


def not_a_server():
    return 1
