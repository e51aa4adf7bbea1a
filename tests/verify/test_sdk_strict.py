"""No false positives on what a provider's own SDK emits as valid for its strict mode:
openai-python's to_strict_json_schema output for realistic pydantic models must be clean
under openai-strict, and anthropic's transform_schema output under anthropic-strict.
Needs the `sdk` extra (openai, anthropic, pydantic); runs offline."""

from __future__ import annotations

import datetime as dt
import enum
import uuid
from typing import List, Literal, Optional, Union

import pytest

from conftest import lint_json

pydantic = pytest.importorskip("pydantic")
_pyd = pytest.importorskip("openai.lib._pydantic")

from pydantic import BaseModel, Field  # noqa: E402


class Priority(str, enum.Enum):
    low = "low"
    normal = "normal"
    high = "high"


class Address(BaseModel):
    street: str
    city: str = Field(description="City name")
    postcode: Optional[str] = None
    country: str = Field(default="DE", min_length=2, max_length=2, pattern=r"^[A-Z]{2}$")


class EmailContact(BaseModel):
    email: str = Field(json_schema_extra={"format": "email"})
    verified: bool = False


class PhoneContact(BaseModel):
    phone: str = Field(pattern=r"^\+[0-9]{6,15}$")
    sms: bool = True


class LineItem(BaseModel):
    sku: str
    quantity: int = Field(ge=1, le=1000)
    unit_price: float = Field(gt=0, multiple_of=0.01)
    tags: List[str] = Field(default_factory=list, max_length=10)


class Category(BaseModel):
    name: str
    children: List["Category"] = Field(default_factory=list)  # recursion is supported


class CreateOrder(BaseModel):
    """Create an order for a customer."""

    order_id: uuid.UUID
    customer: str = Field(description="Customer name", min_length=1)
    placed_at: dt.datetime
    deliver_on: Optional[dt.date] = None
    priority: Priority = Priority.normal
    channel: Literal["web", "phone", "store"]
    contact: Union[EmailContact, PhoneContact]
    shipping: Address
    billing: Optional[Address] = None
    items: List[LineItem] = Field(min_length=1, max_length=50)
    category: Optional[Category] = None
    notes: Optional[str] = Field(default=None, max_length=500)


class NoArguments(BaseModel):
    pass


@pytest.mark.parametrize("model", [CreateOrder, Address, LineItem, Category, NoArguments])
def test_to_strict_json_schema_output_is_clean_under_openai_strict(model):
    schema = _pyd.to_strict_json_schema(model)
    findings = lint_json({"name": model.__name__.lower(), "inputSchema": schema},
                         profiles=["openai-strict"], select=["DEC"])
    # The SDK keeps default, minLength and maxLength, which OpenAI says only "can be rejected":
    # those are reported one severity lower (warnings, never errors); nothing else may remain.
    hard = [f for f in findings if "can be rejected" not in f.message]
    assert hard == [], [f"{f.rule} {f.pointer}: {f.message}" for f in hard]
    assert all(f.severity.label == "warning" and f.pointer[-1] in ("default", "minLength", "maxLength")
               for f in findings), [f"{f.pointer} {f.severity}" for f in findings]


def test_the_same_model_without_the_sdk_is_not_clean():
    """The check has teeth: pydantic's plain schema (no strict conversion) is rejected."""
    schema = CreateOrder.model_json_schema()
    findings = lint_json({"name": "create_order", "inputSchema": schema}, profiles=["openai-strict"], select=["DEC"])
    kinds = {f.rule for f in findings}
    assert "DEC001" in kinds
    assert any("additionalProperties" in f.message for f in findings)
    assert any("Missing 'deliver_on'" in f.message for f in findings)


class CreateOrderFlat(CreateOrder):
    category: Optional[str] = None  # no recursive model: Anthropic does not support recursion


@pytest.mark.slow
@pytest.mark.parametrize("model", [CreateOrderFlat, Address, LineItem, NoArguments])
def test_anthropic_transform_schema_output_is_clean_under_anthropic_strict(model):
    transform = pytest.importorskip("anthropic.lib._parse._transform")
    schema = transform.transform_schema(model)
    findings = lint_json({"name": model.__name__.lower(), "inputSchema": schema},
                         profiles=["anthropic-strict"], select=["DEC"])
    assert findings == [], [f"{f.rule} {f.pointer}: {f.message}" for f in findings]


def test_anthropic_transform_keeps_recursion_which_the_api_rejects():
    transform = pytest.importorskip("anthropic.lib._parse._transform")
    schema = transform.transform_schema(CreateOrder)
    findings = lint_json({"name": "create_order", "inputSchema": schema}, profiles=["anthropic-strict"], select=["DEC"])
    assert [(f.rule, str(f.pointer)) for f in findings] == [
        ("DEC001", "/inputSchema/$defs/Category/properties/children/items/$ref")]
    assert "recursive schemas are not supported" in findings[0].message
