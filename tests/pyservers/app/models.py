"""Models of the official-SDK test server, in a module of their own."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict


class Customer(BaseModel):
    name: str = Field(max_length=80)
    email: Optional[str] = None
    notes: dict[str, str] = {}


class StrictCustomer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    vip: bool


@dataclass
class Window:
    start: str
    end: Optional[str] = None


class Totals(TypedDict):
    count: int
    amount: float


class Aliased(BaseModel):
    full_name: str = Field(alias="fullName", max_length=10)
