"""Re-exports the package's server: `fastmcp run reexport:mcp` finds it here."""
from .server import mcp

__all__ = ["mcp"]
