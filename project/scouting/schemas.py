"""Wire shapes of the scouting calls: camelCase JSON, with the read shapes and validation
messages of the product specification (docs/specification.md §3 and §5), word for word."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, Field

from project.common.choices import SELECTABLE_SPORTS, Sport
from project.common.schemas import (
    CamelSchema,
    InputSchema,
    checked,
    min_chars,
    one_of,
    single_line,
    spec_error,
)
from project.privacy.players import Audience, comments_allowed, player_view

AGE_MIN, AGE_MAX = 9, 50
GRADUATION_YEAR_MIN, GRADUATION_YEAR_MAX = 2024, 2040
AGE_TOO_LOW = "Player must be at least 9 years old"
AGE_TOO_HIGH = "Invalid age"
GRADUATION_YEAR_RANGE = "Graduation year must be between 2024 and 2040"
SPORT_INVALID = "Please select a sport"
SKILLS_REQUIRED = "Skills are required"
VIDEO_LINK_INVALID = "Video link must be a web address (http or https)"


def _blank_to_none(value: object) -> object:
    """Spec section 5: a blank age or graduation year becomes undefined."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return value


def _blank_to_football(value: object) -> object:
    return "football" if value in (None, "") else value


def _age(value: int | None) -> int | None:
    if value is not None and value < AGE_MIN:
        raise spec_error(AGE_TOO_LOW)
    if value is not None and value > AGE_MAX:
        raise spec_error(AGE_TOO_HIGH)
    return value


def _graduation_year(value: int | None) -> int | None:
    if value is not None and not GRADUATION_YEAR_MIN <= value <= GRADUATION_YEAR_MAX:
        raise spec_error(GRADUATION_YEAR_RANGE)
    return value


def _video_link(value: str | None) -> str | None:
    """Free text per the spec, but never a script address: the SPA renders it as a link."""
    if value is None:
        return None
    value = value.strip()
    head = value.split("/", 1)[0]
    if ":" in head and not value.lower().startswith(("http://", "https://")):
        raise spec_error(VIDEO_LINK_INVALID)
    return value


Age = Annotated[
    int | None,
    BeforeValidator(_blank_to_none),
    checked(_age, minimum=AGE_MIN, maximum=AGE_MAX),
    Field(description="9 to 50; blank means not given"),
]
GraduationYear = Annotated[
    int | None,
    BeforeValidator(_blank_to_none),
    checked(_graduation_year, minimum=GRADUATION_YEAR_MIN, maximum=GRADUATION_YEAR_MAX),
    Field(description="2024 to 2040; blank means not given"),
]
# One-line values: each reaches a share card, and the name an email's subject.
Name = Annotated[
    str,
    Field(max_length=200),
    min_chars(2, "Name must be at least 2 characters"),
    AfterValidator(single_line("Name")),
]
Position = Annotated[
    str,
    Field(max_length=100),
    min_chars(2, "Position is required"),
    AfterValidator(single_line("Position")),
]
Nationality = Annotated[
    str,
    Field(max_length=100),
    min_chars(2, "Nationality is required"),
    AfterValidator(single_line("Nationality")),
]
Club = Annotated[
    str,
    Field(max_length=200),
    min_chars(2, "Club is required"),
    AfterValidator(single_line("Club")),
]
SelectableSport = Annotated[
    str,
    BeforeValidator(_blank_to_football),
    AfterValidator(one_of(SELECTABLE_SPORTS, SPORT_INVALID)),
    Field(json_schema_extra={"enum": list(SELECTABLE_SPORTS)}),
]
VideoLink = Annotated[str | None, Field(max_length=500), AfterValidator(_video_link)]


class PlayerFieldsIn(InputSchema):
    """The fields shared by the nomination form and the player edit form. Age may be blank
    only when a graduation year is given (checked by the services: the player's identity
    needs one of them)."""

    name: Name
    age: Age = None
    graduation_year: GraduationYear = None
    position: Position
    nationality: Nationality
    club: Club
    video_link: VideoLink = None


class NominationIn(PlayerFieldsIn):
    sport: SelectableSport = "football"
    skills: Annotated[
        str,
        Field(max_length=5000, validate_default=True),
        min_chars(1, SKILLS_REQUIRED),
    ] = ""


class PlayerUpdateIn(PlayerFieldsIn):
    sport: SelectableSport
    skills: Annotated[str | None, Field(max_length=5000, description="Omitted: unchanged")] = None


def _sees_hidden(player: Any, context: Any) -> bool:
    """Whether the reader of a response sees what a claimant hid: an admin, or the
    claimant (a live event, read by no one in particular, does not)."""
    request = (context or {}).get("request")
    viewer = getattr(request, "auth", None)
    if viewer is None:
        return False
    return bool(viewer.is_admin) or viewer.pk == getattr(player, "claimed_by_id", None)


class PlayerOut(CamelSchema):
    id: int
    name: str
    age: int | None
    graduation_year: int | None
    position: str
    nationality: str
    club: str
    sport: str
    skills: str
    video_link: str
    verified: bool
    managed_by: Literal["family", "athlete"] | None = Field(
        None,
        description="Who manages the profile since a verified claim: its family or the athlete",
    )

    # A player row is read through the privacy rules (project/privacy); a dict (an event's
    # data read back) is already what its readers see.
    @staticmethod
    def resolve_managed_by(obj: Any) -> str | None:
        if isinstance(obj, dict):
            return obj.get("managedBy", obj.get("managed_by"))
        view = player_view(obj, Audience.MEMBER)
        return None if view.managed_by is None else str(view.managed_by)

    @staticmethod
    def resolve_club(obj: Any, context: Any) -> str:
        if isinstance(obj, dict):
            return str(obj["club"])
        if _sees_hidden(obj, context):
            return str(obj.club)
        return player_view(obj, Audience.MEMBER).club

    @staticmethod
    def resolve_nationality(obj: Any, context: Any) -> str:
        if isinstance(obj, dict):
            return str(obj["nationality"])
        if _sees_hidden(obj, context):
            return str(obj.nationality)
        return player_view(obj, Audience.MEMBER).nationality


class UserRefOut(CamelSchema):
    id: int
    name: str
    username: str


class NominationEventOut(CamelSchema):
    """The nomination read shape as pushed live (no hasVoted: it depends on the reader)."""

    id: int
    player: PlayerOut
    nominated_by: UserRefOut
    created_at: datetime
    status: str
    vote_count: int
    # Raised with every change of vote_count (as vote.changed carries it): a screen keeps the
    # newer of a read and a live count that crossed on the way.
    version: int
    # Its published comments; 0 while comments are off for the player (privacy's rule).
    comment_count: int = 0

    @staticmethod
    def resolve_comment_count(obj: Any) -> int:
        if isinstance(obj, dict):
            return int(obj.get("commentCount", obj.get("comment_count")) or 0)
        return int(obj.comment_count) if comments_allowed(obj.player) else 0


class NominationOut(NominationEventOut):
    has_voted: bool


class DuplicateNominationOut(CamelSchema):
    """409 body of a duplicate: the existing live nomination's id, to link to it."""

    message: str
    code: Literal["duplicate_nomination"]
    nomination_id: int


class NominationListQuery(InputSchema):
    q: str | None = Field(
        None,
        max_length=200,
        description="Case-insensitive text in player name, position, nationality, club or "
        "nominator name",
    )
    sport: Sport | None = None
    status: Literal["pending", "approved", "rejected", "removed", "hidden"] | None = Field(
        None, description="Admins only: one status instead of the live (pending + approved) list"
    )


class SportQuery(CamelSchema):
    sport: Sport | None = None


class RecentQuery(SportQuery):
    limit: int = Field(6, description="How many (default 6, at most 50)")


class VoteIn(InputSchema):
    nomination_id: int


class VoteOut(CamelSchema):
    nomination_id: int
    vote_count: int
    has_voted: bool
    # The nomination's vote version after this call (as in vote.changed): a screen orders this
    # answer against live counts by it, so a late answer never shows an older count.
    version: int


class ScoutRankOut(CamelSchema):
    id: int
    name: str
    username: str
    nomination_count: int


class StatsOut(CamelSchema):
    nominations: int
    votes: int
    nominations_needing_votes: int


class ActivityOut(CamelSchema):
    id: int
    user_id: int
    activity_type: str
    related_user_id: int | None
    related_player_id: int | None
    related_nomination_id: int | None
    metadata: dict[str, Any]
    created_at: datetime
    user: UserRefOut


class ActivityBatchOut(CamelSchema):
    """activity.batch: the activities of one live merge window after its first, oldest first."""

    items: list[ActivityOut]


class FeedQuery(SportQuery):
    following: bool = Field(
        False, description="Only activity by followed users or about followed players"
    )


class FollowTargetIn(CamelSchema):
    """Exactly one of playerId, userId and clubId."""

    player_id: int | None = None
    user_id: int | None = None
    club_id: int | None = None


class FollowStatusOut(CamelSchema):
    is_following: bool


class ClubRefOut(CamelSchema):
    id: int
    name: str
    sport: str
    location: str


class FollowingOut(CamelSchema):
    """One followed player, user or club; ``id`` is the follow's id."""

    id: int
    type: Literal["player", "user", "club"]
    player: PlayerOut | None
    user: UserRefOut | None
    club: ClubRefOut | None = None
    created_at: datetime

    @staticmethod
    def resolve_type(follow: Any) -> str:
        if follow.followed_player_id is not None:
            return "player"
        return "club" if follow.followed_club_id is not None else "user"

    @staticmethod
    def resolve_club(follow: Any) -> Any:
        return follow.followed_club

    @staticmethod
    def resolve_player(follow: Any) -> Any:
        return follow.followed_player

    @staticmethod
    def resolve_user(follow: Any) -> Any:
        return follow.followed_user


class NotificationOut(CamelSchema):
    id: int
    message: str
    type: str
    read: bool
    created_at: datetime
    related_nomination_id: int | None


class NotificationsOut(CamelSchema):
    items: list[NotificationOut]
    unread_count: int


class NotificationsReadIn(InputSchema):
    """Either ids (the notifications to mark read) or all: true."""

    ids: list[int] | None = Field(None, max_length=500)
    all: bool = False


class UnreadCountOut(CamelSchema):
    unread_count: int
