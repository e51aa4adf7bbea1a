"""An mcp 1.x low-level Server with a prompts/list handler and none for tools."""
from mcp import types
from mcp.server.lowlevel import Server
server = Server("p")
@server.list_prompts()
async def lp() -> list[types.Prompt]:
    return []
