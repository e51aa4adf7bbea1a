"""An official-SDK (mcp 2) server in a package: relative imports, models in another module."""
from __future__ import annotations

import sys
from typing import Annotated, Optional

from mcp.server.mcpserver import MCPServer
from pydantic import Field

from .models import Aliased, Customer, StrictCustomer, Totals, Window

print("server module imported")  # stdout of the import: captured, never mixed into the report
print("a warning on stderr", file=sys.stderr)

server = MCPServer("orders")


@server.tool()
def find_orders(
    customer: Customer,
    window: Window,
    limit: Annotated[int, Field(ge=1, le=50)] = 10,
    status: Optional[str] = None,
) -> Totals:
    """Find a customer's orders in a time window."""
    raise NotImplementedError


@server.tool(name="register")
async def register_customer(customer: StrictCustomer, referrer: str) -> str:
    """Register a customer."""
    return "ok"


@server.tool()
def rename(person: Aliased) -> Aliased:
    """A field with an alias: the schema names it fullName."""
    return person


@server.tool()
def search(
    query: str,
    max_results: Annotated[int, Field(alias="maxResults", ge=1, le=50)] = 10,
    region: Optional[str] = Field(default=None, alias="Region"),
) -> str:
    """Arguments renamed by an alias: the schema names them maxResults and Region."""
    return query


if __name__ == "__main__":
    raise SystemExit("ran as a script: mcplint must only import this module")
