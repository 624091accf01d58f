"""The REST reads of the boards: all time, trending and weekly, and the Player of the Week
history (the arithmetic is in ``maths.py``, what the live layer pushes in ``live.py``).

Each board is one indexed query for its top 10 (an index scan in board order and a limit, no
sort), whatever the number of nominations or votes:

* all time orders by ``vote_count`` (the specification's board, docs/specification.md §2 /results);
* trending orders by the ``trend`` column, whose order is the decayed order at every moment;
  the votes of the last 24 hours it shows are a subquery evaluated for the 10 rows answered;
* weekly orders the current week's ``NominationWeek`` counters (sport, week, votes desc).

Ranks follow the scores shown, on every board the same way: entries showing the same figure
side by side share a rank (1, 2, 2, 4), even where trending orders them by a decayed score that
tells them apart. Movement compares the
board with the previous one: the ranks of each board's last two distinct states are kept in
the cache (shared by every process with Redis), so the REST answer and the live event tell
the same movement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, get_args

from django.core.cache import cache
from django.db.models import Count, F, OuterRef, QuerySet, Subquery
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce
from django.utils import timezone
from ninja.responses import NinjaJSONEncoder

from project.accounts.models import User
from project.common.choices import Sport
from project.common.db import db_datetime, reading
from project.common.pagination import PageQuery, cursor_decode, cursor_encode
from project.privacy.models import PlayerControls
from project.privacy.players import age_from, is_young_child, managed_by_of
from project.scouting import selectors
from project.scouting.boards.maths import next_week_start, week_of, week_zone
from project.scouting.boards.schemas import BoardKind
from project.scouting.models import (
    LIVE_STATUSES,
    Nomination,
    NominationWeek,
    Player,
    Vote,
    VoteStatus,
)

BOARD_KINDS: tuple[BoardKind, ...] = get_args(BoardKind)
TRENDING_WINDOW = timedelta(hours=24)
HISTORY_PLACES = 3
_RANKS_KEY = "boards:ranks:{kind}:{sport}:{week}"

Ranks = dict[int, int]


@dataclass(frozen=True)
class Week:
    week: date
    starts_at: datetime
    resets_at: datetime


def current_week(now: datetime | None = None) -> Week:
    now = now or timezone.now()
    monday = week_of(now)
    starts_at = datetime(monday.year, monday.month, monday.day, tzinfo=week_zone())
    return Week(week=monday, starts_at=starts_at, resets_at=next_week_start(now))


# --- The boards ---------------------------------------------------------------------------


def _ordered(
    kind: BoardKind, *, sport: str | None, user: User | None, now: datetime
) -> QuerySet[Nomination]:
    """The board's live nominations in board order, each annotated with ``board_key`` (what
    orders it) and, for weekly and trending, ``board_score`` (the votes shown, which rank it)."""
    week = week_of(now)
    queryset = selectors.nomination_queryset(user=user).filter(status__in=LIVE_STATUSES)
    if kind == "weekly":
        # One join to this week's counters: the (sport, week, -votes) index serves it.
        weeks = {"weeks__week": week, "weeks__votes__gt": 0}
        if sport:
            weeks["weeks__sport"] = sport
        return (
            queryset.filter(**weeks)
            .annotate(board_key=F("weeks__votes"), board_score=F("weeks__votes"))
            .order_by("-board_key", "id")
        )
    if sport:
        queryset = queryset.filter(sport=sport)
    if kind == "trending":
        return (
            queryset.filter(trend__isnull=False)
            .annotate(board_key=F("trend"), board_score=_recent_votes(now))
            .order_by("-trend", "id")
        )
    return queryset.annotate(board_key=F("vote_count")).order_by(*selectors.MOST_VOTED_FIRST)


# The votes the ranked boards count: trusted (Vote.counted) and not voided.
ON_BOARDS: dict[str, Any] = {"counted": True, "status": VoteStatus.ACTIVE}


def _recent_votes(now: datetime) -> Coalesce:
    """The nomination's votes of the last 24 hours: a subquery of the board's query (the
    (nomination, created_at) index serves it), evaluated only for the rows answered."""
    votes = (
        Vote.objects.filter(
            nomination_id=OuterRef("pk"), created_at__gt=now - TRENDING_WINDOW, **ON_BOARDS
        )
        .order_by()
        .values("nomination_id")
        .annotate(votes=Count("*"))
        .values("votes")
    )
    return Coalesce(Subquery(votes), 0)


def recent_on_boards_sql(ops: Any, now: datetime, prefix: str) -> tuple[str, list[Any]]:
    """The SQL condition (and its parameters) of a vote the trending board counts: of the last
    24 hours and ``ON_BOARDS``; ``prefix`` is the vote table's alias with its dot, or ""."""
    return (
        f"{prefix}created_at > %s AND {prefix}counted = %s AND {prefix}status = %s",
        [
            ops.adapt_datetimefield_value(now - TRENDING_WINDOW),
            ON_BOARDS["counted"],
            ON_BOARDS["status"],
        ],
    )


def competition_ranks(keys: Sequence[Any]) -> list[int]:
    """1-based ranks of keys sorted best first, equal keys sharing a rank: 1, 2, 2, 4."""
    ranks: list[int] = []
    for position, key in enumerate(keys):
        ranks.append(ranks[-1] if position and key == keys[position - 1] else position + 1)
    return ranks


def _ranks_key(kind: BoardKind, sport: str | None, week: date) -> str:
    return _RANKS_KEY.format(kind=kind, sport=sport or "*", week=week if kind == "weekly" else "")


# ``stored`` not given: the board's stored ranks are read from the cache.
_READ: Any = object()


def _movements(
    kind: BoardKind, sport: str | None, week: date, ranks: Ranks, stored: Any = _READ
) -> dict[int, Any]:
    """Places gained since the previous board of this kind (None: not on it; 0 everywhere
    when no previous board is known). The first reader of a new state (live layer or REST)
    keeps it as the board's current one and the one before as the previous. ``stored``: the
    board's cache entry when the caller has read it already (None: there is none)."""
    key = _ranks_key(kind, sport, week)
    if stored is _READ:
        stored = cache.get(key)
    if stored is not None and stored["current"] == ranks:
        previous = stored["previous"]
    else:
        previous = None if stored is None else stored["current"]
        cache.set(key, {"current": ranks, "previous": previous}, timeout=None)
    if previous is None:
        return dict.fromkeys(ranks, 0)
    return {pk: None if pk not in previous else previous[pk] - rank for pk, rank in ranks.items()}


def board_nominations(
    *,
    kind: BoardKind,
    sport: str | None,
    user: User | None = None,
    now: datetime | None = None,
    stored: Any = _READ,
) -> list[Nomination]:
    """The board's top 10 live nominations, each with ``rank``, ``score`` and ``movement``
    set (and ``has_voted`` for ``user``); ``stored`` as ``_movements`` takes it."""
    now = now or timezone.now()
    week = week_of(now)
    board = _ordered(kind, sport=sport, user=user, now=now)
    nominations = list(board[: selectors.LEADERBOARD_SIZE])
    if kind == "all":
        scores = [n.vote_count for n in nominations]
    else:
        scores = [n.board_score for n in nominations]  # type: ignore[attr-defined]  # annotated
    ranks = competition_ranks(scores)
    movements = _movements(
        kind,
        sport,
        week,
        {n.pk: rank for n, rank in zip(nominations, ranks, strict=True)},
        stored,
    )
    for nomination, rank, score in zip(nominations, ranks, scores, strict=True):
        nomination.rank = rank  # type: ignore[attr-defined]  # read by the board schemas
        nomination.score = score  # type: ignore[attr-defined]
        nomination.movement = movements[nomination.pk]  # type: ignore[attr-defined]
    return nominations


def board_data(
    *, kind: BoardKind, sport: str | None, now: datetime | None = None, stored: Any = _READ
) -> list[dict[str, Any]]:
    """The board as pushed live: entries without hasVoted (``BoardEntryEventOut`` as the
    REST answers encode it), read by ``_board_rows``; ``stored`` as ``_movements`` takes it."""
    now = now or timezone.now()
    rows = _board_rows(kind, sport, now)
    ranks = competition_ranks([row[-2] for row in rows])  # by the score shown
    movements = _movements(
        kind,
        sport,
        week_of(now),
        {row[0]: rank for row, rank in zip(rows, ranks, strict=True)},
        stored,
    )
    return [
        _entry_wire(row, rank, movements[row[0]]) for row, rank in zip(rows, ranks, strict=True)
    ]


# The live layer reads a sport's three boards up to four times a second. Each read is one
# statement written by hand, the same query as ``_ordered``'s (same filters, order and
# indexes): compiling the ORM's querysets costs more CPU than PostgreSQL takes to run them
# (docs/decisions.md#board-reads-by-hand). A test holds each board equal to the REST answer's,
# entry by entry.
_BOARD_SQL = (
    "SELECT n.id, n.created_at, n.status, n.vote_count, n.version, p.id, p.name, p.age, "
    "p.graduation_year, p.position, p.nationality, p.club, p.sport, p.skills, p.video_link, "
    # Who manages the page: no one once its controls are held by no one (privacy/players.py).
    "p.verified, CASE WHEN p.claimed_by_id IS NULL THEN NULL ELSE c.relationship END, "
    "c.hide_club, c.hide_nationality, n.comment_count, "
    "c.birth_year, c.comments_open, u.id, u.name, u.username, "
    "{score}, {key} "
    "FROM {nominations} n JOIN {players} p ON p.id = n.player_id "
    "LEFT JOIN {controls} c ON c.player_id = p.id "
    "JOIN {users} u ON u.id = n.nominated_by_id{join} "
    "WHERE n.status IN ({live}){where} ORDER BY {key} DESC, n.id LIMIT %s"
)


def _board_rows(kind: BoardKind, sport: str | None, now: datetime) -> list[tuple[Any, ...]]:
    """The board's top 10 rows in board order: the entry's columns, its score, its key."""
    connection = reading(Nomination)
    ops = connection.ops
    quote = ops.quote_name
    score_params: list[Any] = []
    where_params: list[Any] = list(LIVE_STATUSES)
    join = where = ""
    if kind == "weekly":
        score = key = "w.votes"
        join = f" JOIN {quote(NominationWeek._meta.db_table)} w ON w.nomination_id = n.id"
        where = " AND w.week = %s AND w.votes > 0"
        where_params.append(ops.adapt_datefield_value(week_of(now)))
        if sport:
            where += " AND w.sport = %s"
            where_params.append(sport)
    else:
        if sport:
            where = " AND n.sport = %s"
            where_params.append(sport)
        if kind == "trending":
            key = "n.trend"
            where += " AND n.trend IS NOT NULL"
            recent, score_params = recent_on_boards_sql(ops, now, "v.")
            score = (
                f"(SELECT COUNT(*) FROM {quote(Vote._meta.db_table)} v "  # noqa: S608  (the model's table; values bound)
                f"WHERE v.nomination_id = n.id AND {recent})"
            )
        else:
            score = key = "n.vote_count"
    sql = _BOARD_SQL.format(
        score=score,
        key=key,
        nominations=quote(Nomination._meta.db_table),
        players=quote(Player._meta.db_table),
        controls=quote(PlayerControls._meta.db_table),
        users=quote(User._meta.db_table),
        join=join,
        live=", ".join(["%s"] * len(LIVE_STATUSES)),
        where=where,
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*score_params, *where_params, selectors.LEADERBOARD_SIZE])
        return cursor.fetchall()


_ENCODER = NinjaJSONEncoder()


def _entry_wire(row: tuple[Any, ...], rank: int, movement: int | None) -> dict[str, Any]:
    """``_wire(BoardEntryEventOut.from_orm(nomination))`` written out from a board row: the
    schema's validation of every entry is a large share of a sport's summaries' CPU
    (docs/decisions.md#live-payloads-by-hand)."""
    (
        pk,
        created_at,
        status,
        vote_count,
        version,
        player_id,
        player_name,
        age,
        graduation_year,
        position,
        nationality,
        club,
        player_sport,
        skills,
        video_link,
        verified,
        relationship,
        hide_club,
        hide_nationality,
        comment_count,
        birth_year,
        comments_open,
        nominator_id,
        nominator_name,
        username,
        score,
        _key,
    ) = row
    return {
        "id": pk,
        "player": {
            "id": player_id,
            "name": player_name,
            "age": age,
            "graduationYear": graduation_year,
            "position": position,
            "nationality": "" if hide_nationality else nationality,
            "club": "" if hide_club else club,
            "sport": player_sport,
            "skills": skills,
            "videoLink": video_link,
            "verified": bool(verified),
            "managedBy": managed_by_of(relationship),
        },
        "nominatedBy": {"id": nominator_id, "name": nominator_name, "username": username},
        "createdAt": _ENCODER.default(db_datetime(created_at)),
        "status": status,
        "voteCount": vote_count,
        "version": version,
        "commentCount": comment_count
        if (comments_open is None or bool(comments_open))
        and not is_young_child(
            age_from(birth_year=birth_year, graduation_year=graduation_year, age=age)
        )
        else 0,
        "rank": rank,
        "score": score,
        "movement": movement,
    }


# --- Player of the Week -------------------------------------------------------------------


@dataclass(frozen=True)
class WeekWinners:
    week: date
    sport: str
    winners: list[Nomination]


@dataclass(frozen=True)
class HistoryPage:
    items: list[WeekWinners]
    next_cursor: str | None


def _winners_sql(*, sport: str | None, before: date, weeks: int) -> tuple[str, list[Any]]:
    """The ids of the ``NominationWeek`` rows that are the Player of the Week places of the
    ``weeks`` newest past weeks before ``before`` (each with a live nomination's votes), every
    sport or one. Index descents only, whatever the number of nominations or votes: the weeks
    come one by one from the (sport, week) or (week) index, newest first (a recursive walk, not
    a scan of their rows), then each (week, sport)'s place 1, 2 and 3 from the (sport, week,
    votes desc, nomination) index, skipping nominations that are not live. Portable SQL
    (PostgreSQL and SQLite): no LATERAL, no window over the weeks' rows."""
    week_table = NominationWeek._meta.db_table
    nomination_table = Nomination._meta.db_table
    live = ", ".join(["%s"] * len(LIVE_STATUSES))
    sports = [sport] if sport else list(Sport.values)

    def older(bound: str, bound_params: list[Any]) -> tuple[str, list[Any]]:
        """The newest week before ``bound`` with a live nomination's votes."""
        in_sport = "AND w.sport = %s " if sport else ""
        sql = (
            f"SELECT w.week FROM {week_table} w JOIN {nomination_table} n "  # noqa: S608  (the models' tables; values bound)
            f"ON n.id = w.nomination_id WHERE w.week < {bound} AND w.votes > 0 "
            f"AND n.status IN ({live}) {in_sport}ORDER BY w.week DESC LIMIT 1"
        )
        return sql, [*bound_params, *LIVE_STATUSES, *([sport] if sport else [])]

    first, first_params = older("%s", [before])
    step, step_params = older("weeks.week", [])
    places = []
    place_params: list[Any] = []
    for place in range(HISTORY_PLACES):
        places.append(
            f"SELECT (SELECT t.id FROM {week_table} t JOIN {nomination_table} n "  # noqa: S608  (the models' tables; values bound)
            f"ON n.id = t.nomination_id WHERE t.sport = sports.sport AND t.week = weeks.week "
            f"AND t.votes > 0 AND n.status IN ({live}) "
            f"ORDER BY t.votes DESC, t.nomination_id LIMIT 1 OFFSET {place}) "
            "FROM weeks, sports WHERE weeks.week IS NOT NULL"
        )
        place_params += LIVE_STATUSES
    sql = (
        f"WITH RECURSIVE weeks(week, depth) AS (SELECT ({first}), 1 UNION ALL "  # noqa: S608  (built above; values bound)
        f"SELECT ({step}), depth + 1 FROM weeks WHERE weeks.week IS NOT NULL AND depth < %s), "
        f"sports(sport) AS (VALUES {', '.join(['(%s)'] * len(sports))}) "
        + " UNION ALL ".join(places)
    )
    return sql, [*first_params, *step_params, weeks, *sports, *place_params]


def weekly_history(
    *, sport: str | None, page: PageQuery, now: datetime | None = None
) -> HistoryPage:
    """Player of the Week: for each past week (newest first) and sport, its top 3 live
    nominations by that week's votes (equal votes share a rank). A page is ``limit`` weeks,
    read in one query of index descents (``_winners_sql``)."""
    before = week_of(now or timezone.now())
    if page.cursor:
        before = min(before, cursor_decode(page.cursor, NominationWeek, ["week"])[0])
    size = page.size()
    sql, params = _winners_sql(sport=sport, before=before, weeks=size + 1)
    places = (
        NominationWeek.objects.filter(pk__in=RawSQL(sql, params))  # noqa: S611  (values bound)
        .select_related("nomination__player", "nomination__nominated_by")
        .order_by("-week", "sport", "-votes", "nomination_id")
    )
    grouped: dict[tuple[date, str], list[NominationWeek]] = {}
    for row in places:
        grouped.setdefault((row.week, row.sport), []).append(row)
    served = sorted({week for week, _ in grouped}, reverse=True)
    next_cursor = None
    if len(served) > size:
        served = served[:size]
        next_cursor = cursor_encode([served[-1].isoformat()])
    kept = set(served)
    items = []
    for (week, sport_), rows in grouped.items():
        if week not in kept:
            continue
        winners = []
        for row, rank in zip(rows, competition_ranks([row.votes for row in rows]), strict=True):
            nomination = row.nomination
            nomination.rank = rank  # type: ignore[attr-defined]  # read by WeekWinnerOut
            nomination.score = row.votes  # type: ignore[attr-defined]
            winners.append(nomination)
        items.append(WeekWinners(week=week, sport=sport_, winners=winners))
    return HistoryPage(items=items, next_cursor=next_cursor)
