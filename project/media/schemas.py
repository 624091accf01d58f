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
                "Optional. When given, it is signed into the form: the fields then carry it as "
                "Content-Type and the storage refuses any other; when absent, none is signed."
            ),
        ),
    ] = None


class UploadOut(CamelSchema):
    upload_url: str = Field(
        alias="uploadURL",
        description=(
            "POST the file here as multipart/form-data: every entry of fields, then the file "
            "as the last field, named file."
        ),
    )
    method: Literal["POST"]
    fields: dict[str, str] = Field(
        description="Form fields to send as they are, before the file (key, signature, ...)."
    )
    object_url: str = Field(
        alias="objectURL",
        description="Where the uploaded file is: confirm it with PUT /api/profile/avatar.",
    )
    expires_at: datetime = Field(description="The POST must start before this time.")


class AvatarIn(InputSchema):
    avatar_url: str = Field(
        alias="avatarURL", max_length=2000, description="The objectURL of the upload."
    )


class AvatarOut(CamelSchema):
    avatar_url: str
