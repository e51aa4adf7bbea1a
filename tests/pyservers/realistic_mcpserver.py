"""The corpus's realistic server on the official SDK: it picks its SDK from its command line
(`--sdk mcp`), so this module sets that and imports it; its tools stay defined in the corpus file."""
import importlib.util
import sys
from pathlib import Path

sys.argv[1:] = ["--sdk", "mcp"]
_spec = importlib.util.spec_from_file_location(
    "fastmcp_realistic", Path(__file__).parents[1] / "data" / "corpus" / "fastmcp_realistic.py")
realistic = importlib.util.module_from_spec(_spec)
sys.modules["fastmcp_realistic"] = realistic
_spec.loader.exec_module(realistic)

mcp = realistic.mcp
