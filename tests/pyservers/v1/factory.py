"""mcp 1.x, built by a factory (as a test or an app with settings would): nothing at module level."""
from mcp.server.fastmcp import FastMCP
from pydantic import BaseModel, Field


class Query(BaseModel):
    text: str = Field(max_length=200)


def create_server(name: str = "search") -> FastMCP:
    server = FastMCP(name)

    @server.tool()
    def search(query: Query, limit: int = 10) -> list[str]:
        """Search the index."""
        return []

    return server


if __name__ == "__main__":
    create_server().run()
