from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BeforeValidator, Field

from project.common.schemas import CamelSchema, InputSchema, one_of
from project.media.images import UPLOAD_CONTENT_TYPES


def _lower(value: object) -> object:
    return value.strip().lower() if isinstance(value, str) else value


class UploadIn(InputSchema):
    content_type: Annotated[
        str | None,
        BeforeValidator(_lower),
        AfterValidator(
            one_of(
                (*UPLOAD_CONTENT_TYPES, None),
                "Only PNG, JPEG, GIF or WebP images can be uploaded",
            )
        ),
        Field(
            description=(
                "Optional. When given, it is signed into the address and the PUT must send "
                "exactly this Content-Type header; when absent, no content type is signed."
            ),
        ),
    ] = None


class UploadOut(CamelSchema):
    upload_url: str = Field(
        alias="uploadURL", description="Send the file here with one PUT (raw body, no form)."
    )
    method: Literal["PUT"]
    headers: dict[str, str] = Field(
        description="Headers the PUT must carry (Content-Type when one was signed)."
    )
    expires_at: datetime = Field(description="The PUT must start before this time.")


class AvatarIn(InputSchema):
    avatar_url: str = Field(
        alias="avatarURL", max_length=2000, description="The uploadURL the file was PUT to."
    )


class AvatarOut(CamelSchema):
    avatar_url: str
