"""Tool descriptions longer than OpenAI strict's 1024 characters, written three ways: a
docstring (which the SDK sends as the description, its indentation included), a decorator's
``description=``, and ``add_tool(..., description=...)`` (of a function here and of one in another
module), where the function's own short docstring is not what the tool sends."""
import long_helpers
from mcp.server.mcpserver import MCPServer

server = MCPServer("long")

RULES = "Search the archive. " + "Every search is logged and rate limited per caller. " * 25


@server.tool()
def search(query: str) -> str:
    """Search the archive for documents matching a query.

    The archive holds every published document since 1990. Results are ranked by relevance, then
    by date. A query may use AND, OR and NOT between terms, quotes for phrases, and a trailing
    asterisk for prefixes. Field prefixes narrow a term to one field: title:, author:, body:.
    Dates are written YYYY-MM-DD and ranges as date:2001-01-01..2002-01-01. Terms shorter than
    three characters are ignored unless quoted. Stop words are ignored unless quoted. A query of
    more than forty terms is cut to its first forty. A query that matches nothing returns an
    empty list, not an error. Results beyond the first hundred are not returned; narrow the query
    instead. Each result has a title, an author, a date and the first two hundred characters of
    its body. The ranking favours exact phrase matches, then all terms in the title, then all
    terms in the body, then any term anywhere. Ties are broken by date, newest first. Deleted
    documents are never returned. Documents under embargo are returned only to callers with the
    archive:embargo scope, which this server does not have.
    """
    return query


@server.tool(description=RULES)
def fetch(doc_id: str) -> str:
    """Fetch one document."""
    return doc_id


def count(query: str) -> int:
    """Count the matches."""
    return len(query)


server.add_tool(count, description=RULES)
server.add_tool(long_helpers.lookup, name="lookup",
                description=RULES)


@server.tool()
def ping() -> str:
    """Answer pong."""
    return "pong"
