"""The server that is run: its own tool, and jira.py's mounted under "jira_" (fastmcp's
``mount``). other.py's server is imported for something else and not served."""
from fastmcp import FastMCP

from .jira import jira
from .other import other

main = FastMCP("main")
main.mount(jira, namespace="jira")


@main.tool()
def status() -> str:
    """Say how things are."""
    return "ok" if other else "?"
