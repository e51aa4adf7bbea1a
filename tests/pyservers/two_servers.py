"""Two servers in one module, each with a `health` tool (as fastmcp's versioning example serves
API surfaces side by side): each has its own tools/list. The low-level one lists `health` twice."""
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.mcpserver import MCPServer

public = MCPServer("public")


@public.tool()
def health() -> str:
    """Health check."""
    return "ok"


SCHEMA = {"type": "object", "properties": {}, "additionalProperties": False}


async def list_tools(ctx, params) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[types.Tool(name="health", description="Health.", input_schema=SCHEMA),
                                        types.Tool(name="health", description="Again.", input_schema=SCHEMA)])


admin = Server("admin", on_list_tools=list_tools)
