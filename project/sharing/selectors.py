"""Reads of what is public to share: an approved nomination whose player is neither taken
down nor under review after a takedown request, a scout the public may see (``public_members``:
a public profile, never a teen account). Judged for an anonymous visitor, whoever asks: the link
preview of an address is the same for every client. A pending nomination is not shared (no
admin has looked at it yet: its player, most often a child, is named nowhere outside the site
before that), nor a rejected, removed or hidden one."""

from __future__ import annotations

from django.db.models import Count, F, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from project.accounts.models import User
from project.accounts.selectors import public_members
from project.privacy.players import public_card_denied
from project.scouting.models import LIVE_STATUSES, Nomination, NominationStatus
from project.sharing.models import ShareCard

# What a preview and a card show of a nomination, and its card's address.
_PREVIEW_FIELDS = (
    "id",
    "sport",
    "status",
    "vote_count",
    "player__id",
    "player__name",
    "player__age",
    "player__graduation_year",
    "player__position",
    "player__club",
    "player__nationality",
    "player__claimed_by",
    # The claimant's controls (project/privacy): what the public may see of the player.
    "player__controls__id",
    "player__controls__player",
    "player__controls__relationship",
    "player__controls__birth_year",
    "player__controls__hide_club",
    "player__controls__hide_nationality",
    "player__controls__share_card",
    "player__controls__indexable",
    "share_card__id",
    "share_card__key",
    "share_card__inputs",
)


def public_nominations() -> QuerySet[Nomination]:
    """The nominations whose page unfolds into a preview and a share card: approved ones
    whose player is neither taken down nor under review."""
    return Nomination.objects.filter(
        status=NominationStatus.APPROVED,
        player__hidden_at__isnull=True,
        player__under_review_at__isnull=True,
    )


def public_scouts() -> QuerySet[User]:
    # The accounts' one rule of which members the public sees (no teen account, no private
    # or followers-only profile).
    return public_members()


def public_nomination(nomination_id: int) -> Nomination | None:
    """The nomination with its player, its controls and share card joined, when public (one
    query). What the public sees of its player is ``player_view(..., Audience.PUBLIC)``."""
    return (
        public_nominations()
        .filter(pk=nomination_id)
        .select_related("player", "player__controls", "share_card")
        .only(*_PREVIEW_FIELDS)
        .first()
    )


def public_card_nominations() -> QuerySet[Nomination]:
    """The public nominations whose player the public may see on a share card
    (``player_view(...).share_card``): not an unclaimed child under 13, not a player whose
    claimant turned the card off."""
    return public_nominations().exclude(public_card_denied("player__"))


def public_scout(user_id: int) -> User | None:
    """The scout with its share card joined and ``live_nominations`` counted, when public
    (one query)."""
    live = (
        Nomination.objects.filter(nominated_by=OuterRef("pk"), status__in=LIVE_STATUSES)
        .order_by()
        .values("nominated_by")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return (
        public_scouts()
        .filter(pk=user_id)
        .select_related("share_card")
        .annotate(
            live_nominations=Coalesce(Subquery(live, output_field=IntegerField()), 0),
        )
        .first()
    )


def card_is_public(key: str) -> bool:
    """Whether the card stored under ``key`` is the current card of a public subject."""
    subject = Q(nomination__in=public_card_nominations()) | Q(scout__in=public_scouts())
    return ShareCard.objects.filter(subject, key=key).exists()


def cards_to_draw(*, limit: int) -> tuple[list[int], list[int]]:
    """The nominations and scouts whose card is missing or shows another count than theirs
    now (votes, points), at most ``limit`` of each, oldest first (two queries)."""
    nominations = public_card_nominations().filter(
        Q(share_card__isnull=True) | ~Q(share_card__count=F("vote_count"))
    )
    scouts = public_scouts().filter(Q(share_card__isnull=True) | ~Q(share_card__count=F("points")))
    return (
        list(nominations.order_by("pk").values_list("pk", flat=True)[:limit]),
        list(scouts.order_by("pk").values_list("pk", flat=True)[:limit]),
    )
