"""fastmcp 2.x names a tool by the decorator's first argument (`@mcp.tool("x")`) or after the
function (bare `@mcp.tool`): DEC007 is placed on each."""
from fastmcp import FastMCP

mcp = FastMCP("demo")


@mcp.tool("get.weather")
def get_weather(city: str) -> str:
    """Get the weather."""
    return city


@mcp.tool
def fetch_the_weather_forecast_for_a_city_for_the_next_seven_days_in_detail(city: str) -> str:
    """Forecast."""
    return city
