"""Who hears of a nomination: the one rule every nomination.created, nomination.updated and
nomination.removed event is built by (``nomination_event``, ``nomination_removed``), and the
events about what hangs off a nomination (its comments) too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from project.scouting.models import LIVE_STATUSES, Nomination, NominationStatus
from realtime.publish import Event, publish


@dataclass(frozen=True)
class _Audience:
    sport: str | None
    nominator: bool
    admins: bool


_NOBODY = _Audience(sport=None, nominator=False, admins=False)


def _audience(*, status: str, sport: str) -> _Audience:
    """Who sees a nomination of this status in their lists: its sport's group while the
    community sees it (pending or approved), admins and its nominator (My Nominations, whatever
    sport they watch) while it is not hidden; a taken-down (hidden) one leaves every list."""
    if status == NominationStatus.HIDDEN:
        return _NOBODY
    return _Audience(sport=sport if status in LIVE_STATUSES else None, nominator=True, admins=True)


def _event(
    event_type: str,
    nomination: Nomination,
    data: dict[str, Any],
    audience: _Audience,
    also_user_ids: tuple[int, ...] = (),
) -> Event | None:
    if audience == _NOBODY:
        return None
    nominator = (nomination.nominated_by_id,) if audience.nominator else ()
    return Event(
        event_type,
        data,
        sport=audience.sport,
        user_ids=tuple(dict.fromkeys(nominator + also_user_ids)),
        admins=audience.admins,
    )


def nomination_event(
    event_type: Literal[
        "nomination.created", "nomination.updated", "comment.created", "comment.removed"
    ],
    nomination: Nomination,
    data: dict[str, Any],
    *,
    also_user_ids: tuple[int, ...] = (),
) -> Event | None:
    """``event_type`` about ``nomination`` (``data``: its read shape, or one of its comments)
    to everyone who sees it as it is now (``_audience``), and to ``also_user_ids`` (a
    comment's author); None when nobody does (a hidden one)."""
    return _event(
        event_type,
        nomination,
        data,
        _audience(status=nomination.status, sport=nomination.sport),
        also_user_ids,
    )


def nomination_removed(
    nomination: Nomination,
    *,
    status_was: str | None = None,
    sport_was: str | None = None,
    deleted: bool = False,
) -> Event | None:
    """nomination.removed to those who saw ``nomination`` before its change (its status and
    sport then: ``status_was``, ``sport_was``, by default as they are now) and no longer do:
    everyone who saw it when it is ``deleted``; the sport's group alone when it left the
    community but its nominator and admins still see it (rejected, removed on reports, moved
    to another sport: they get nomination.updated); None when nobody lost it."""
    before = _audience(status=status_was or nomination.status, sport=sport_was or nomination.sport)
    after = _NOBODY if deleted else _audience(status=nomination.status, sport=nomination.sport)
    lost = _Audience(
        sport=before.sport if before.sport != after.sport else None,
        nominator=before.nominator and not after.nominator,
        admins=before.admins and not after.admins,
    )
    return _event("nomination.removed", nomination, {"id": nomination.pk}, lost)


def nomination_publish(event: Event | None) -> None:
    """Publish a nomination event built above, if anyone is to hear it."""
    if event is not None:
        publish(event)


def nomination_related_event(
    event_type: str,
    nomination: Nomination,
    data: dict[str, Any],
    *,
    user_ids: tuple[int, ...] = (),
) -> Event | None:
    """``event_type`` about what hangs off ``nomination``'s player (its endorsements) to
    everyone who sees the nomination as it is now (``_audience``) and to ``user_ids`` (the
    player's claimant); None when nobody sees it."""
    audience = _audience(status=nomination.status, sport=nomination.sport)
    if audience == _NOBODY:
        return None
    return Event(
        event_type,
        data,
        sport=audience.sport,
        user_ids=(nomination.nominated_by_id, *user_ids),
        admins=audience.admins,
    )
