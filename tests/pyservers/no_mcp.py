"""Imports nothing of MCP: not a server."""
import json

DATA = json.dumps({"tools": []})
