"""Run Python agent frameworks' own tool-schema conversion on JSON Schemas, offline.

Reads {"schemas": [...], "frameworks": [...]} on stdin and writes one result per schema and framework
on stdout: {"versions": {...}, "results": {framework: [{"sent": schema, "strict": bool|null} |
{"error": type, "message": text}]}}. It runs in a virtual environment that holds the frameworks
(build.sh beside it) and imports nothing from mcplint, so mcplint's own environment stays free of them.
Each conversion is the one the framework applies to a tool an MCP server lists, up to the request:

  pydantic-ai          OpenAIChatModel + OpenAIProvider, ToolDefinition(strict=None) (MCPServer's default)
  pydantic-ai-strict   the same with strict=True
  litellm-gemini       VertexGeminiConfig._map_function (Gemini / Vertex AI function declarations)
  litellm-unpack       its first step alone: build_vertex_schema's unpack_defs of $defs into every $ref
  langchain-openai     ChatOpenAI.bind_tools on a StructuredTool whose args_schema is the inputSchema
  langchain-openai-strict  the same with strict=True
"""

from __future__ import annotations

import copy
import json
import os
import sys
from importlib import metadata

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # never fetch the price list at import
os.environ.setdefault("OPENAI_API_KEY", "sk-offline")  # clients are built, never called


def _pydantic_ai(strict):
    from pydantic_ai.models import ModelRequestParameters
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider
    from pydantic_ai.tools import ToolDefinition

    model = OpenAIChatModel("gpt-4o", provider=OpenAIProvider(api_key="sk-offline"))

    def run(schema):
        td = ToolDefinition(name="t", description="d", parameters_json_schema=schema, strict=strict)
        out = model.customize_request_parameters(ModelRequestParameters(function_tools=[td])).function_tools[0]
        return {"sent": out.parameters_json_schema, "strict": out.strict}
    return run


def _litellm_gemini():
    from litellm.llms.vertex_ai.gemini.vertex_and_google_ai_studio_gemini import VertexGeminiConfig

    config = VertexGeminiConfig()

    def run(schema):
        tools = config._map_function([{"type": "function", "function": {"name": "t", "description": "d",
                                                                         "parameters": schema}}], {})
        decl = tools[0]["function_declarations"][0]
        return {"sent": decl.get("parameters"), "strict": None}
    return run


def _litellm_unpack():
    from litellm.litellm_core_utils.prompt_templates.common_utils import unpack_defs

    def run(schema):
        # as build_vertex_schema begins: $defs popped from the root and unpacked into every $ref
        defs = schema.pop("$defs", {})
        unpack_defs(schema, defs)
        return {"sent": schema, "strict": None}
    return run


def _langchain(strict):
    from langchain_core.tools import StructuredTool
    from langchain_openai import ChatOpenAI

    llm = ChatOpenAI(model="gpt-4o", api_key="sk-offline")

    async def call(**kwargs):
        return ""

    def run(schema):
        # what langchain-mcp-adapters' convert_mcp_tool_to_langchain_tool builds from an MCP tool
        tool = StructuredTool(name="t", description="d", args_schema=schema, coroutine=call)
        fn = llm.bind_tools([tool], strict=strict).kwargs["tools"][0]["function"]
        return {"sent": fn.get("parameters"), "strict": fn.get("strict")}
    return run


FRAMEWORKS = {
    "pydantic-ai": (lambda: _pydantic_ai(None), "pydantic-ai-slim"),
    "pydantic-ai-strict": (lambda: _pydantic_ai(True), "pydantic-ai-slim"),
    "litellm-gemini": (_litellm_gemini, "litellm"),
    "litellm-unpack": (_litellm_unpack, "litellm"),
    "langchain-openai": (lambda: _langchain(None), "langchain-openai"),
    "langchain-openai-strict": (lambda: _langchain(True), "langchain-openai"),
}


def main() -> None:
    req = json.load(sys.stdin)
    names = req.get("frameworks") or list(FRAMEWORKS)
    out: dict = {"versions": {}, "results": {}}
    for name in names:
        make, dist = FRAMEWORKS[name]
        try:
            run = make()
        except ImportError as e:
            out["results"][name] = {"unavailable": str(e)}
            continue
        out["versions"][dist] = metadata.version(dist)
        rows = []
        for schema in req["schemas"]:
            try:
                rows.append(run(copy.deepcopy(schema)))
            except Exception as e:  # the framework refuses the tool: as its caller would see it
                rows.append({"error": type(e).__name__, "message": str(e)[:300]})
        out["results"][name] = rows
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
