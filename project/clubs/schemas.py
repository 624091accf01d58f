from __future__ import annotations

from pydantic import Field

from project.common.choices import Sport
from project.common.schemas import CamelSchema, InputSchema
from project.scouting.schemas import ActivityOut, ClubRefOut


class ClubQuery(CamelSchema):
    sport: Sport | None = None
    q: str | None = Field(
        None,
        max_length=200,
        description="Text the club's name holds, folded as the search folds it (case, accents, "
        'punctuation and spacing aside: "F.C. Porto" finds "FC Porto")',
    )


class ClubSuggestionOut(ClubRefOut):
    player_count: int


class ClubPlayerOut(CamelSchema):
    """A club's player as the reader sees it (the public: never a player under 13)."""

    id: int
    name: str
    position: str
    age: int | None
    graduation_year: int | None
    verified: bool
    under_review: bool


class ClubNominationOut(CamelSchema):
    """A listed player's approved nomination, with its votes and their version (as
    vote.changed carries them)."""

    nomination_id: int
    vote_count: int
    version: int
    player: ClubPlayerOut


class ClubOut(CamelSchema):
    id: int
    name: str
    sport: str
    type: str
    location: str
    description: str
    logo_url: str
    players: list[ClubNominationOut]
    follower_count: int
    is_following: bool = Field(description="False when signed out")
    activity: list[ActivityOut] = Field(description="Empty when signed out")


class PlayerClubOut(CamelSchema):
    club: ClubRefOut | None


class ClubMergeIn(InputSchema):
    merge_ids: list[int] = Field(
        min_length=1, max_length=50, description="The duplicate clubs merged into this one"
    )
