"""Wire shapes of the boards: all time, trending and weekly."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import Field

from project.common.choices import Sport
from project.common.schemas import CamelSchema
from project.scouting.schemas import NominationEventOut, NominationOut, ScoutRankOut

BoardKind = Literal["all", "trending", "weekly"]

RANK_DESCRIPTION = (
    "1 for the first; on every board, entries side by side with equal scores share a rank "
    "(1, 2, 2, 4)"
)
SCORE_DESCRIPTION = (
    "What people are shown: votes (all time), votes in the last 24 hours (trending) or votes "
    "this week (weekly)"
)
MOVEMENT_DESCRIPTION = (
    "Places gained (positive) or lost (negative) since the previous board; null for an entry "
    "that was not on it"
)


class BoardQuery(CamelSchema):
    board: BoardKind = Field(
        "all",
        description="`all`: by vote count (the specification's board); `trending`: by votes "
        "decayed with their age (half-life 24 hours); `weekly`: by votes cast this week",
    )
    sport: Sport | None = Field(None, description="One sport's board; every sport without it")


class BoardPlaceOut(CamelSchema):
    rank: int = Field(description=RANK_DESCRIPTION)
    score: int = Field(description=SCORE_DESCRIPTION)
    movement: int | None = Field(description=MOVEMENT_DESCRIPTION)


class BoardEntryOut(NominationOut, BoardPlaceOut):
    """A board entry: the nomination read shape with its place."""


class BoardEntryEventOut(NominationEventOut, BoardPlaceOut):
    """A board entry as pushed live (no hasVoted: it depends on the reader)."""


class AllBoardEventOut(CamelSchema):
    """leaderboard.changed of the all-time board: the only one with scouts."""

    board: Literal["all"]
    players: list[BoardEntryEventOut]
    scouts: list[ScoutRankOut]


class TrendingBoardEventOut(CamelSchema):
    """leaderboard.changed of the trending board."""

    board: Literal["trending"]
    players: list[BoardEntryEventOut]


class WeeklyBoardEventOut(CamelSchema):
    """leaderboard.changed of the weekly board, with the week it counts."""

    board: Literal["weekly"]
    week: date = Field(description="The Monday that starts the current week")
    resets_at: datetime = Field(description="When the weekly board starts again from zero")
    players: list[BoardEntryEventOut]


# One leaderboard.changed per board kind (realtime/summaries.py).
LeaderboardEventOut = Annotated[
    AllBoardEventOut | TrendingBoardEventOut | WeeklyBoardEventOut, Field(discriminator="board")
]


class WeekOut(CamelSchema):
    week: date = Field(description="The Monday that starts the current week")
    starts_at: datetime = Field(description="When the current week began")
    resets_at: datetime = Field(description="When the weekly board starts again from zero")


class WeekWinnerOut(NominationEventOut):
    rank: int = Field(description=RANK_DESCRIPTION)
    score: int = Field(description="Votes cast in that week")


class WeekWinnersOut(CamelSchema):
    """Player of the Week: a past week's top 3 of one sport."""

    week: date = Field(description="The Monday that starts the week")
    sport: Sport
    winners: list[WeekWinnerOut]


class HistoryQuery(CamelSchema):
    sport: Sport | None = Field(None, description="One sport's weeks; every sport without it")
