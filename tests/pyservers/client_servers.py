"""A client that keeps its own `Server` class for the servers it connects to (as the official
SDK's simple-chatbot example does): it builds no MCP server."""
from mcp import ClientSession


class Server:
    def __init__(self, name: str, config: dict) -> None:
        self.name, self.config, self.session = name, config, None

    async def open(self) -> ClientSession | None:
        return self.session


def connect(config: dict) -> list[Server]:
    return [Server(name, c) for name, c in config["mcpServers"].items()]
