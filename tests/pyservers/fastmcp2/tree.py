"""fastmcp 2.x with a recursive model as an argument: tools/list fails for every client."""
from __future__ import annotations

from fastmcp import FastMCP
from pydantic import BaseModel

mcp = FastMCP("Tree")


class Node(BaseModel):
    label: str
    children: list[Node] = []


@mcp.tool
def count(root: Node) -> int:
    """Count the nodes of a tree."""
    return 1 + sum(count(c) for c in root.children)
