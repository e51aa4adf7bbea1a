"""refs_bare.py with the fixes mcplint gives for openai-agents applied: a description beside
every $ref, which the SDK inlines, so the tool is sent strict."""
from typing import Annotated, Optional

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field

server = MCPServer("refs")


class Address(BaseModel):
    street: str


class Person(BaseModel):
    home: Optional[Annotated[Address, Field(description="home address")]] = None
    work: Address = Field(description="work address")
    old: list[Annotated[Address, Field(description="a former address")]]


@server.tool()
def save(person: Annotated[Person, Field(description="the person")],
         extra: Optional[Annotated[Address, Field(description="another address")]] = None,
         many: list[Annotated[Address, Field(description="one of many")]] = []) -> str:
    """Save a person."""
    return "ok"
