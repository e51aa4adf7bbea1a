"""Tool names a target refuses or cuts, written the ways a server names its tools: after the
function (the SDK's default), by the decorator's ``name=``, and by ``add_tool(fn, name=...)``;
a long function given a short ``name=`` and a short function name are no finding."""
from mcp.server.mcpserver import MCPServer

server = MCPServer("names")


@server.tool()
def fetch_the_weather_forecast_for_a_city_for_the_next_seven_days_in_detail(city: str) -> str:
    """Forecast."""
    return city


@server.tool(name="get.weather")
def get_weather(city: str) -> str:
    """Weather now."""
    return city


@server.tool(name="alerts")
def list_every_weather_alert_issued_for_the_region_in_the_past_seventy_two_hours(region: str) -> str:
    """Alerts."""
    return region


def items(kind: str) -> str:
    """Items."""
    return kind


server.add_tool(items, name="list.items")


@server.tool()
def ping() -> str:
    """Ping."""
    return "pong"
