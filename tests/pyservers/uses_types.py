"""A test helper that imports the SDK's types and builds no server: not a server."""
from mcp import types


def tool_names(result: types.ListToolsResult) -> list[str]:
    return [tool.name for tool in result.tools]
