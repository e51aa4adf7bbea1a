"""fastmcp's PromptsAsTools transform adds tools of its own (list_prompts, get_prompt): their
functions are fastmcp's, in site-packages, not this server's code."""
from fastmcp import FastMCP
from fastmcp.server.transforms import PromptsAsTools

mcp = FastMCP("prompt tools")


@mcp.prompt
def explain(concept: str) -> str:
    """Explain a concept."""
    return f"Explain {concept}."


mcp.add_transform(PromptsAsTools(mcp))
