"""A web app beside an MCP server: its `Server` is not the SDK's."""
from wsgiref.simple_server import WSGIServer as Server

from mcp import types


def serve(app) -> None:
    Server(("", 8000), None).serve_forever()


def names(result: types.ListToolsResult) -> list[str]:
    return [t.name for t in result.tools]
