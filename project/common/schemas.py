"""Schema bases: camelCase on the wire, the one error body, spec-worded validators."""

from __future__ import annotations

import json
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Union, get_args, get_origin

from ninja import Schema
from ninja.responses import NinjaJSONEncoder
from pydantic import (
    ConfigDict,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    ValidationInfo,
    field_validator,
)
from pydantic.alias_generators import to_camel
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from project.common.forms import one_line_message
from project.common.text import has_control_characters


def camel_keys(row: Mapping[str, Any]) -> dict[str, Any]:
    """A row's keys in the API's camelCase."""
    return {to_camel(key): value for key, value in row.items()}


def wire(value: Schema) -> dict[str, Any]:
    """A schema as the JSON-ready dict the API would send (aliases, dates as strings)."""
    encoded = json.dumps(value.model_dump(by_alias=True), cls=NinjaJSONEncoder)
    data: dict[str, Any] = json.loads(encoded)
    return data


class CamelSchema(Schema):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class InputSchema(CamelSchema):
    """A request body: its text never carries a NUL character (PostgreSQL text cannot store
    one) nor a lone UTF-16 surrogate (no encoding can store one), so such input is refused as
    "Invalid input" instead of failing the write. Integer fields take JSON integers (or a
    blank "") only, within the 64-bit range the databases store: ``true``, ``"1"`` or ``1.0``
    are refused rather than read as 1."""

    @field_validator("*", mode="before")
    @classmethod
    def _storable_text_and_strict_ints(cls, value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, str) and not _storable(value):
            raise spec_error("Invalid input")
        field = cls.model_fields.get(info.field_name or "")
        shape = _int_shape(field.annotation) if field is not None else None
        # A blank form field ("") is left to the field's own validators (age: not given).
        if shape == "int" and value not in (None, "") and not _is_int(value):
            raise spec_error("Invalid input")
        if shape == "list" and isinstance(value, list) and not all(map(_is_int, value)):
            raise spec_error("Invalid input")
        return value


def _storable(text: str) -> bool:
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (JSON "\ud800")
        return False
    return True


# The widest integer either database stores (a BIGINT id): larger ones are not ids of anything,
# and SQLite cannot even bind them as a query parameter.
_INT_MIN, _INT_MAX = -(2**63), 2**63 - 1


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and _INT_MIN <= value <= _INT_MAX


def _int_shape(annotation: Any) -> str | None:
    """ "int" for an int field (optional or not), "list" for a list of ints, else None."""
    if get_origin(annotation) in (Union, types.UnionType):
        shapes = {_int_shape(arg) for arg in get_args(annotation) if arg is not type(None)}
        return shapes.pop() if len(shapes) == 1 else None
    if annotation is int:
        return "int"
    if get_origin(annotation) is list and get_args(annotation) == (int,):
        return "list"
    return None


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


@dataclass(frozen=True)
class Checked:
    """A field's own validator (its message the specification's words) and the bounds it
    checks, shown in the OpenAPI schema (``minLength``, ``maxLength``, ``minimum``,
    ``maximum``): the SPA's forms read them from there (frontend/src/lib/api/limits.ts).

        name: Annotated[str, min_chars(2, "Name must be at least 2 characters")]
    """

    check: Callable[[Any], Any]
    bounds: tuple[tuple[str, int], ...] = ()  # a tuple: Annotated's metadata is hashed

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        return core_schema.no_info_after_validator_function(self.check, handler(source))

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {**handler(schema), **dict(self.bounds)}


def checked(check: Callable[[Any], Any], **bounds: int) -> Checked:
    """``check`` as a field's validator, the OpenAPI schema showing ``bounds``."""
    return Checked(check, tuple(bounds.items()))


def min_chars(length: int, message: str) -> Checked:
    """At least ``length`` characters once trimmed (the value is trimmed)."""
    return checked(min_length(length, message), minLength=length)


def max_chars(length: int, message: str) -> Checked:
    """At most ``length`` characters once trimmed (the value is trimmed)."""

    def check(value: str) -> str:
        value = value.strip()
        if len(value) > length:
            raise spec_error(message)
        return value

    return checked(check, maxLength=length)


def single_line(label: str) -> Callable[[str], str]:
    """A one-line value (a name, a club): no line break, tab or other control character, which
    would otherwise reach an email's subject or a share card."""

    def check(value: str) -> str:
        if has_control_characters(value):
            raise spec_error(one_line_message(label))
        return value

    return check


def one_of(values: tuple[str, ...] | list[str], message: str) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if value not in values:
            raise spec_error(message)
        return value

    return check
