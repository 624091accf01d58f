"""Wire shapes of player updates (camelCase)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, StrictBool

from project.common.schemas import CamelSchema, InputSchema, spec_error
from project.scouting.schemas import PlayerOut, UserRefOut
from project.updates.videos import VideoRefused, video_of

TITLE_MAX = 200
CONTENT_MAX = 5000
REASON_MAX = 500
TITLE_REQUIRED = "Give the update a title"


def _title(value: str) -> str:
    value = value.strip()
    if not value:
        raise spec_error(TITLE_REQUIRED)
    if len(value) > TITLE_MAX:
        raise spec_error(f"Title must be at most {TITLE_MAX} characters")
    return value


def _content(value: str | None) -> str:
    value = (value or "").strip()
    if len(value) > CONTENT_MAX:
        raise spec_error(f"Text must be at most {CONTENT_MAX} characters")
    return value


def _video(value: str | None) -> str:
    value = (value or "").strip()
    if not value:
        return ""
    if len(value) > 500:
        raise spec_error("Video link must be at most 500 characters")
    try:
        video_of(value)
    except VideoRefused as refused:
        raise spec_error(str(refused)) from None
    return value


def _reason(value: str | None) -> str:
    value = (value or "").strip()
    if len(value) > REASON_MAX:
        raise spec_error(f"Reason must be at most {REASON_MAX} characters")
    return value


class PlayerUpdatePostIn(InputSchema):
    title: Annotated[str, AfterValidator(_title)] = Field(
        description=f"At most {TITLE_MAX} characters"
    )
    content: Annotated[str | None, AfterValidator(_content)] = Field(
        None, description=f"The text, at most {CONTENT_MAX} characters"
    )
    video_url: Annotated[str | None, AfterValidator(_video)] = Field(
        None,
        alias="videoURL",
        description="Optional: a YouTube, Vimeo or Hudl video address (others: 400)",
    )
    image_url: str | None = Field(
        None,
        alias="imageURL",
        max_length=2000,
        description="Optional: the objectURL of an upload (POST /api/objects/upload); checked "
        "and re-encoded without its metadata like an avatar",
    )
    milestone: StrictBool = False


class VideoOut(CamelSchema):
    host: Literal["youtube", "vimeo", "hudl"]
    url: str = Field(description="The address as its author gave it")
    embed_url: str = Field(
        description="The privacy-enhanced embed, to load only when the reader asks"
    )


class PlayerUpdateOut(CamelSchema):
    id: int
    player_id: int
    author: UserRefOut
    author_role: Literal["claimant", "coach", "admin", "member"]
    title: str
    content: str
    image_url: str | None
    video: VideoOut | None
    milestone: bool
    status: Literal["pending", "published", "rejected"]
    decision_reason: str
    created_at: datetime


class AdminPlayerUpdateOut(PlayerUpdateOut):
    player: PlayerOut
    decided_by: UserRefOut | None
    decided_at: datetime | None


class PlayerUpdateDecideIn(InputSchema):
    reason: Annotated[str | None, AfterValidator(_reason)] = Field(
        None, description="Optional; told to the author"
    )


class PlayerUpdateListQuery(CamelSchema):
    status: Literal["pending", "published", "rejected"] = "pending"


class PlayerUpdateChangedOut(CamelSchema):
    """player_update.changed: a player's updates changed (read them again); to those who see
    the update: the player's sport once it is published, else its author and admins."""

    player_id: int
    id: int
    action: Literal["created", "approved", "rejected", "deleted"]


class PlayerUpdateQueueOut(CamelSchema):
    """player_update_queue.changed: the Player updates tab's pending count, the update that
    changed and how."""

    pending: int
    item: AdminPlayerUpdateOut
    action: Literal["created", "approved", "rejected", "deleted"]
