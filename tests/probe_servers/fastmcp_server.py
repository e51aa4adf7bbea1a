"""A server built with FastMCP (the standalone ``fastmcp`` package), probed end to end over
stdio by the tests: two tools, one with a structured (Pydantic) result."""

from fastmcp import FastMCP
from pydantic import BaseModel

mcp = FastMCP("fastmcp-example")


class Forecast(BaseModel):
    city: str
    celsius: float


@mcp.tool
def forecast(city: str, days: int = 1) -> Forecast:
    """Tomorrow's temperature in a city."""
    return Forecast(city=city, celsius=21.5)


@mcp.tool
def echo(text: str) -> str:
    """Say it back."""
    return text


if __name__ == "__main__":
    mcp.run(show_banner=False)
