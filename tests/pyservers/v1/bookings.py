"""A booking service on the official SDK's 1.x API (``mcp.server.fastmcp.FastMCP``), typed the
way its README types tools: pydantic models, ``Field`` constraints in signatures, a
``Context`` argument, structured output from a model, a TypedDict, a dataclass and a primitive."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Annotated, Literal, Optional

from mcp.server.fastmcp import Context, FastMCP
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

mcp = FastMCP("Bookings")


class Guest(BaseModel):
    """Who the room is for."""

    name: str = Field(max_length=80, description="Full name")
    email: Optional[str] = None
    loyalty_tier: Literal["none", "silver", "gold"] = "none"


class Stay(BaseModel):
    check_in: date
    nights: int = Field(ge=1, le=30)
    guests: list[Guest]
    notes: dict[str, str] = {}


class Quote(BaseModel):
    total: float
    currency: str = "EUR"


class Availability(TypedDict):
    room: str
    free: bool


@dataclass
class Booking:
    reference: str
    stay_nights: int


@mcp.tool()
def quote_stay(stay: Stay, hotel: Annotated[str, Field(pattern=r"^[A-Z]{3}$")]) -> Quote:
    """Price a stay at a hotel."""
    return Quote(total=100.0 * stay.nights)


@mcp.tool(name="availability", description="Which rooms are free on a day")
async def room_availability(day: date, ctx: Context, floor: Optional[int] = None) -> list[Availability]:
    await ctx.info(f"checking {day}")
    return [Availability(room="101", free=True)]


@mcp.tool()
def book(stay: Stay, confirm: bool = False) -> Booking:
    """Book a stay."""
    return Booking(reference="B-1", stay_nights=stay.nights)


@mcp.tool()
def count_bookings(since: Optional[date] = None) -> int:
    """How many bookings since a day."""
    return 0


if __name__ == "__main__":
    raise SystemExit("ran as a script: mcplint must only import this module")
