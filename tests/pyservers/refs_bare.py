"""Nested models as pydantic writes them without descriptions: every $ref bare, which
openai-agents refuses on the MCP path (refs_described.py is the same server with mcplint's fixes)."""
from typing import Optional

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel

server = MCPServer("refs")


class Address(BaseModel):
    street: str


class Person(BaseModel):
    home: Optional[Address] = None
    work: Address
    old: list[Address]


@server.tool()
def save(person: Person, extra: Optional[Address] = None, many: list[Address] = []) -> str:
    """Save a person."""
    return "ok"
