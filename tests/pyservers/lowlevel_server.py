"""A low-level Server (mcp 2) whose tools/list handler returns hand-written Tools."""
from mcp import types
from mcp.server.lowlevel import Server


async def list_tools(ctx, params) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[
        types.Tool(
            name="echo",
            description="Echo a message.",
            input_schema={"type": "object", "properties": {"message": {"type": "string", "maxLength": 100}}},
        ),
    ])


server = Server("lowlevel", on_list_tools=list_tools)
