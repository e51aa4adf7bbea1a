"""Keywords pydantic writes for a type (AnyUrl: "format": "uri", "minLength": 1; HttpUrl adds
"maxLength": 2083) beside the same keywords written by the code's own Field arguments."""
from datetime import datetime
from typing import Annotated, Any, Optional

from annotated_types import Ge
from mcp.server.mcpserver import MCPServer
from pydantic import AnyUrl, BaseModel, Field, HttpUrl

server = MCPServer("typed")


class Site(BaseModel):
    home: HttpUrl
    label: str = Field(max_length=20)


@server.tool()
def fetch(url: Annotated[AnyUrl, Field(description="URL to fetch")],
          when: datetime,
          name: Annotated[str, Field(min_length=2)],
          site: Site,
          count: Annotated[int, Ge(1)],
          code: str = Field(default="x", max_length=5)) -> str:
    """Fetch a page."""
    return str(url)


LIMIT = Field(default=10, ge=1, le=100)


@server.tool()
def page(limit: int = LIMIT, size: Annotated[int, Field(le=50)] = 5) -> str:
    """A Field bound to a module name: what it writes is not seen, so not claimed for the type."""
    return str(limit + size)


Short = Annotated[str, Field(max_length=8)]


@server.tool()
def tag(names: Optional[list[str]] = Field(default=None, max_length=3), site: Optional[AnyUrl] = None,
        alias: Short = "x") -> str:
    """Optional values: a Field's bound goes in the non-null branch; a type alias is not claimed."""
    return str(names)


@server.tool()
def report(data: dict[str, Any], counts: dict[str, int]) -> str:
    """Free-form maps: dict[str, Any] writes "additionalProperties": true, dict[str, int] a schema."""
    return str(data)


class Labels(BaseModel):
    show: bool


class Series(BaseModel):
    labels: Labels = Field(description="how to label the points")


@server.tool()
def chart(series: Series) -> str:
    """A described nested model: pydantic writes the description beside its $ref."""
    return "ok"
