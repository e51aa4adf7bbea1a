"""A notes server on the standalone fastmcp 2.x API: bare ``@mcp.tool`` decorators, tags, a
disabled tool (which clients never see), and a factory for tests."""
from typing import Annotated, Optional

from fastmcp import Context, FastMCP
from pydantic import BaseModel, Field

mcp = FastMCP("Notes")


class Note(BaseModel):
    title: Annotated[str, Field(min_length=1, max_length=120)]
    body: str
    tags: list[str] = []


class Saved(BaseModel):
    id: int
    title: str


@mcp.tool
def save_note(note: Note, ctx: Context, folder: Optional[str] = None) -> Saved:
    """Save a note in a folder."""
    return Saved(id=1, title=note.title)


@mcp.tool(tags={"search"})
def find_notes(text: Annotated[str, Field(description="Words to look for")], limit: int = 20) -> list[Saved]:
    """Find notes by their words."""
    return []


@mcp.tool(enabled=False)
def purge_everything() -> str:
    """Not listed: disabled."""
    return "gone"


async def create_server() -> FastMCP:
    """An async factory, as `fastmcp run notes.py:create_server` calls it."""
    return mcp


if __name__ == "__main__":
    mcp.run()
