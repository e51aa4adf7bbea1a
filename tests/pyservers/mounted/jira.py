"""A component server, mounted by main.py under a namespace."""
from fastmcp import FastMCP

jira = FastMCP("jira")


@jira.tool()
def get_issue(issue_key: str,
              limit: int = 10) -> str:
    """Get one issue."""
    return issue_key * limit
