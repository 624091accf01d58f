"""The weekly digest: for each member with Weekly Digest (and Email Notifications) on, one
email on Monday about the week that ended: in each of their sports (their favourite and those
of their live nominations) the Player of the Week, their nominations' movement on the weekly
board and their place on the all-time board; and their new followers."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.db.models import Q
from django.utils import timezone

from project.accounts.ages import quiet_until
from project.accounts.models import User, UserSettings
from project.common.choices import Sport
from project.jobs.services import email_enqueue
from project.notify.emails import Rendered, public_url, render
from project.scouting.boards.maths import week_of
from project.scouting.models import LIVE_STATUSES, Follow, Nomination, NominationWeek

# Nominations listed per sport (the most voted first).
DIGEST_NOMINATIONS = 10
DIGEST_REASON = (
    "You receive this email because Weekly Digest and Email Notifications are on in your "
    "ScoutVote settings."
)


@dataclass(frozen=True)
class Digest:
    week: date
    subject: str
    context: dict[str, Any]


def _weekly_rank(sport: str, week: date, votes: int) -> int | None:
    """The place on the sport's weekly board of ``week`` of a nomination with ``votes`` (equal
    votes share a place); None without votes."""
    if votes <= 0:
        return None
    ahead = NominationWeek.objects.filter(
        sport=sport, week=week, votes__gt=votes, nomination__status__in=LIVE_STATUSES
    ).count()
    return ahead + 1


def _movement(now_rank: int | None, before: int | None) -> str:
    if now_rank is None:
        return "not on the weekly board"
    place = f"#{now_rank} on the weekly board"
    if before is None:
        return f"{place} (new)"
    if before > now_rank:
        return f"{place} (up {before - now_rank})"
    if before < now_rank:
        return f"{place} (down {now_rank - before})"
    return f"{place} (no change)"


def _nomination_item(nomination: Nomination, week: date) -> dict[str, Any]:
    previous = week - timedelta(days=7)
    votes = {
        row.week: row.votes
        for row in NominationWeek.objects.filter(nomination=nomination, week__in=[week, previous])
    }
    this_votes, previous_votes = votes.get(week, 0), votes.get(previous, 0)
    rank = _weekly_rank(nomination.sport, week, this_votes)
    before = _weekly_rank(nomination.sport, previous, previous_votes)
    all_time = (
        Nomination.objects.filter(
            sport=nomination.sport, status__in=LIVE_STATUSES, vote_count__gt=nomination.vote_count
        ).count()
        + 1
    )
    vote_word = "vote" if this_votes == 1 else "votes"
    return {
        "name": nomination.player.name,
        "link": public_url(f"/nominations/{nomination.pk}"),
        "votes": this_votes,
        "rank": rank,
        "previous_rank": before,
        "all_time_rank": all_time,
        "summary": (
            f"{this_votes} {vote_word} last week, {_movement(rank, before)}, "
            f"#{all_time} of all time"
        ),
    }


def _winner(sport: str, week: date) -> dict[str, Any] | None:
    row = (
        NominationWeek.objects.filter(
            sport=sport, week=week, votes__gt=0, nomination__status__in=LIVE_STATUSES
        )
        .select_related("nomination__player")
        .order_by("-votes", "nomination_id")
        .first()
    )
    if row is None:
        return None
    return {
        "name": row.nomination.player.name,
        "votes": row.votes,
        "link": public_url(f"/nominations/{row.nomination_id}"),
    }


def digest_of(user: User, now: datetime | None = None) -> Digest:
    """The digest of the week before ``now``'s (the week that just ended on a Monday)."""
    now = now or timezone.now()
    week = week_of(now) - timedelta(days=7)
    nominations = list(
        Nomination.objects.filter(nominated_by=user, status__in=LIVE_STATUSES)
        .select_related("player")
        .order_by("-vote_count", "id")
    )
    sports = [user.favorite_sport] if user.favorite_sport in Sport.values else []
    sports += [n.sport for n in nominations if n.sport not in sports]
    labels = dict(Sport.choices)
    sections = []
    for sport in sports:
        mine = [n for n in nominations if n.sport == sport][:DIGEST_NOMINATIONS]
        sections.append(
            {
                "sport": sport,
                "label": labels[sport],
                "winner": _winner(sport, week),
                "nominations": [_nomination_item(n, week) for n in mine],
            }
        )
    since = now - timedelta(days=7)
    followers = list(
        Follow.objects.filter(followed_user=user, created_at__gte=since)
        .order_by("created_at")
        .values_list("follower__name", flat=True)
    )
    week_label = f"week of {week:%B} {week.day}, {week.year}"
    return Digest(
        week=week,
        subject=f"Your ScoutVote week: {week:%B} {week.day}",
        context={"week_label": week_label, "sports": sections, "followers": followers},
    )


def digest_rendered(user: User, digest: Digest) -> Rendered:
    return render(
        "digest",
        subject=digest.subject,
        context=digest.context,
        link="/results",
        link_label="See the boards",
        reason=DIGEST_REASON,
        user_id=user.pk,
        unsubscribe="digest",
    )


def digests_send(now: datetime | None = None) -> int:
    """Enqueue the digest of every active member with an email address and Weekly Digest and
    Email Notifications on (no settings row: the defaults, on); one per member and week
    (the delivery's key), however often the job runs. Returns how many were enqueued."""
    now = now or timezone.now()
    turned_off = UserSettings.objects.filter(
        Q(weekly_digest=False) | Q(email_notifications=False)
    ).values("user_id")
    members = (
        User.objects.filter(is_active=True)
        .exclude(email="")
        .exclude(pk__in=turned_off)
        .order_by("pk")
    )
    count = 0
    for user in members.iterator():
        digest = digest_of(user, now)
        rendered = digest_rendered(user, digest)
        email_enqueue(
            key=f"digest:{user.pk}:{digest.week.isoformat()}",
            to=user.email,
            subject=rendered.subject,
            body=rendered.text,
            html=rendered.html,
            headers=rendered.headers,
            run_after=quiet_until(user, now),
        )
        count += 1
    return count
