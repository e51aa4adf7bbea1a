"""mcplint: lint MCP tool definitions against the MCP spec, JSON Schema, safety
bounds, the JSON Structure binding, and what each constrained decoder can enforce."""

__version__ = "0.1.0"
