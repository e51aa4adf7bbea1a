"""A server main.py imports and does not mount."""
from fastmcp import FastMCP

other = FastMCP("other")


@other.tool()
def ping() -> str:
    """Answer pong."""
    return "pong"
