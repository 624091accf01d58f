from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BeforeValidator, Field

from project.common.choices import SELECTABLE_SPORTS
from project.common.schemas import CamelSchema, min_length, one_of, spec_error


def _email(value: str) -> str:
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    value = value.strip()
    try:
        validate_email(value)
    except ValidationError:
        raise spec_error("Invalid email address") from None
    return value


def _username_chars(value: str) -> str:
    if not all(ch.isalnum() or ch in "@.+-_" for ch in value):
        raise spec_error("Username may contain only letters, numbers and @ . + - _")
    return value


def _blank_to_default(value: object) -> object:
    return "football" if value in (None, "") else value


class RegisterIn(CamelSchema):
    username: Annotated[
        str,
        Field(max_length=150),
        AfterValidator(min_length(3, "Username must be at least 3 characters")),
        AfterValidator(_username_chars),
    ]
    password: Annotated[
        str, Field(max_length=256), AfterValidator(min_length(6, "Password must be at least 6 characters"))
    ]
    name: Annotated[str, Field(max_length=150), AfterValidator(min_length(1, "Name is required"))]
    email: Annotated[str, Field(max_length=254), AfterValidator(_email)]
    favorite_sport: Annotated[
        str,
        BeforeValidator(_blank_to_default),
        AfterValidator(one_of(SELECTABLE_SPORTS, "Please select a sport")),
    ] = "football"


class LoginIn(CamelSchema):
    username: Annotated[str, Field(max_length=150), AfterValidator(min_length(1, "Username is required"))]
    password: Annotated[str, Field(max_length=256), AfterValidator(min_length(1, "Password is required"))]


class MeOut(CamelSchema):
    id: int
    username: str
    role: str
    name: str
    email: str
    avatar_url: str | None = None


class CsrfOut(CamelSchema):
    csrf_token: str
