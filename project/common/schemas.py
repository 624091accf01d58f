"""Schema bases: camelCase on the wire, the one error body, spec-worded validators."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ninja import Schema
from pydantic import ConfigDict, field_validator
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError


class CamelSchema(Schema):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class InputSchema(CamelSchema):
    """A request body: its text never carries a NUL character (PostgreSQL text cannot store
    one), so such input is refused as "Invalid input" instead of failing the write."""

    @field_validator("*", mode="before")
    @classmethod
    def _no_nul(cls, value: Any) -> Any:
        if isinstance(value, str) and "\x00" in value:
            raise spec_error("Invalid input")
        return value


class ErrorOut(Schema):
    message: str
    code: str
    fields: dict[str, str] | None = None


def spec_error(message: str) -> PydanticCustomError:
    """A validation error whose text is shown to the user as written."""
    return PydanticCustomError("spec", message)


def min_length(length: int, message: str) -> Callable[[str], str]:
    def check(value: str) -> str:
        if len(value.strip()) < length:
            raise spec_error(message)
        return value.strip()

    return check


def one_of(values: tuple[str, ...] | list[str], message: str) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if value not in values:
            raise spec_error(message)
        return value

    return check
