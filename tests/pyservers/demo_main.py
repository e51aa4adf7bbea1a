"""A demo whose main() builds a server, calls it and returns nothing: not a factory to suggest."""
import asyncio

from mcp.server.mcpserver import MCPServer


async def main():
    server = MCPServer("demo")

    @server.tool()
    def echo(message: str) -> str:
        """Echo."""
        return message

    print(await server.list_tools())


if __name__ == "__main__":
    asyncio.run(main())
