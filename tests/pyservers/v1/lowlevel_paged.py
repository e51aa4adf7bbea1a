"""A low-level Server of mcp 1.x whose tools/list handler pages its tools (two per page)."""
import mcp.types as types
from mcp.server.lowlevel import Server

TOOLS = [
    types.Tool(name="alpha", description="First.", inputSchema={"type": "object", "properties": {}}),
    types.Tool(name="beta", description="Second.", inputSchema={"type": "object", "properties": {}}),
    types.Tool(name="gamma", description="Third.",
               inputSchema={"type": "object", "properties": {"q": {"type": "string", "maxLength": 10}}}),
]

server = Server("paged")


@server.list_tools()
async def list_tools(request: types.ListToolsRequest) -> types.ListToolsResult:
    start = int(request.params.cursor) if request.params and request.params.cursor else 0
    nxt = str(start + 2) if start + 2 < len(TOOLS) else None
    return types.ListToolsResult(tools=TOOLS[start:start + 2], nextCursor=nxt)
