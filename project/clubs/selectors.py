"""Reading clubs: suggestions as a name is typed, a club's page per audience, a player's
club."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q

from project.accounts.models import User
from project.clubs.matching import club_key
from project.clubs.services import CLUB_NOT_FOUND
from project.common.errors import NotFound
from project.privacy.players import (
    Audience,
    controls_of,
    is_young_child,
    player_age,
    player_view,
)
from project.scouting import selectors as scouting_selectors
from project.scouting.models import (
    LIVE_STATUSES,
    Club,
    Follow,
    Nomination,
    NominationStatus,
    Player,
)

SUGGESTIONS_MAX = 10
# The most players and activity items a club's page lists.
PAGE_PLAYERS_MAX = 100
PAGE_ACTIVITY_MAX = 10


def club_suggestions(*, sport: str | None, q: str | None) -> list[Club]:
    """The clubs of the sport whose folded name holds the folded text (``club_key``: "F.C.
    Porto", "fc porto" and "porto" find "FC Porto"), those with the most players first; the
    sport's biggest clubs when the text is blank."""
    clubs = Club.objects.all()
    if sport:
        clubs = clubs.filter(sport=sport)
    if q and q.strip():
        key = club_key(q)
        if not key:
            return []
        clubs = clubs.filter(Q(name_key__contains=key) | Q(aliases__key__contains=key))
    return list(
        clubs.annotate(player_count=Count("players", distinct=True)).order_by(
            "-player_count", "name", "pk"
        )[:SUGGESTIONS_MAX]
    )


def club_get(*, club_id: int) -> Club:
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise NotFound(CLUB_NOT_FOUND)
    return club


def _audience(viewer: User | None) -> Audience:
    if viewer is None:
        return Audience.PUBLIC
    return Audience.ADMIN if viewer.is_admin else Audience.MEMBER


def _listed(player: Player, audience: Audience) -> bool:
    """Whether ``audience`` sees ``player`` on its club's page: admins every one; members
    those whose claimant did not hide the club (they see it nowhere else either); the public
    never a player under 13 (claimed or not, or of unknown age), nor one under review, nor a
    claimed one whose family keeps it from the public (its share card off)."""
    if audience == Audience.ADMIN:
        return True
    controls = controls_of(player)
    if controls is not None and controls.hide_club:
        return False
    if audience == Audience.MEMBER:
        return True
    if player.under_review_at is not None or is_young_child(player_age(player)):
        return False
    return controls is None or controls.share_card


def club_nominations(club: Club, audience: Audience) -> list[Nomination]:
    """The club's players' approved nominations the audience sees, most voted first."""
    nominations = (
        Nomination.objects.filter(
            player__club_ref_id=club.pk,
            status=NominationStatus.APPROVED,
            player__hidden_at__isnull=True,
        )
        .select_related("player", "player__controls")
        .order_by("-vote_count", "pk")[:PAGE_PLAYERS_MAX]
    )
    return [n for n in nominations if _listed(n.player, audience)]


def _row(nomination: Nomination, audience: Audience) -> dict[str, Any]:
    player = nomination.player
    view = player_view(player, audience)
    return {
        "nomination_id": nomination.pk,
        "vote_count": nomination.vote_count,
        "version": nomination.version,
        "player": {
            "id": player.pk,
            "name": view.name,
            "position": player.position,
            "age": player_age(player),
            "graduation_year": player.graduation_year,
            "verified": player.verified,
            "under_review": player.under_review_at is not None,
        },
    }


def club_page(*, viewer: User | None, club_id: int) -> dict[str, Any]:
    """A club's page as ``viewer`` sees it (None: the public): name, sport, location, its
    listed players with their approved nominations' votes, its followers' count, and, for
    members, whether they follow it and the recent activity about its listed players."""
    club = club_get(club_id=club_id)
    audience = _audience(viewer)
    nominations = club_nominations(club, audience)
    followers = Follow.objects.filter(followed_club_id=club.pk).count()
    activity: list[dict[str, Any]] = []
    following = False
    if viewer is not None:
        following = Follow.objects.filter(follower_id=viewer.pk, followed_club_id=club.pk).exists()
        players = [n.player_id for n in nominations]
        recent = (
            scouting_selectors.activity_queryset()
            .filter(
                Q(related_nomination__isnull=True)
                | Q(related_nomination__status__in=LIVE_STATUSES),
                related_player_id__in=players,
            )
            .order_by("-created_at", "-id")[:PAGE_ACTIVITY_MAX]
        )
        activity = [scouting_selectors.activity_data(item) for item in recent]
    return {
        "id": club.pk,
        "name": club.name,
        "sport": club.sport,
        "type": club.type,
        "location": club.location,
        "description": club.description,
        "logo_url": club.logo_url,
        "players": [_row(n, audience) for n in nominations],
        "follower_count": followers,
        "is_following": following,
        "activity": activity,
    }


def player_club(*, viewer: User, player_id: int) -> Club | None:
    """The club a visible player's page links to; None without one, or when its claimant
    hid the club from the viewer."""
    player = scouting_selectors.player_get_visible(user=viewer, player_id=player_id)
    if player.club_ref_id is None:
        return None
    controls = controls_of(player)
    sees_hidden = viewer.is_admin or viewer.pk == player.claimed_by_id
    if controls is not None and controls.hide_club and not sees_hidden:
        return None
    return Club.objects.filter(pk=player.club_ref_id).first()
