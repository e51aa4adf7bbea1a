"""A low-level Server (mcp 2) that serves prompts only: it has no tools/list handler."""
from mcp import types
from mcp.server.lowlevel import Server


async def list_prompts(ctx, params) -> types.ListPromptsResult:
    return types.ListPromptsResult(prompts=[types.Prompt(name="hello")])


server = Server("prompts-only", on_list_prompts=list_prompts)
