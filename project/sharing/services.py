"""Share cards: drawn, stored with the avatars (project/media/storage.py) under an address
that holds the image's hash, and deleted with their file the moment their subject stops being
public.

``share_card_render`` is the one function the background worker calls; it is idempotent and
rechecks, under the subject's lock, that the subject is still public before it keeps a card.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction

from project.common.choices import Sport
from project.media.storage import get_storage
from project.privacy.players import Audience, player_view
from project.scouting.boards.reads import board_data
from project.scouting.models import Nomination
from project.sharing import cards
from project.sharing.cache import previews_changed
from project.sharing.models import CardRedraw, ShareCard
from project.sharing.redraws import card_redraw_started
from project.sharing.selectors import (
    public_card_nominations,
    public_nomination,
    public_scout,
    public_scouts,
)

logger = logging.getLogger(__name__)

CONTENT_TYPE = "image/png"
KEY_PREFIX = "cards/"
BOARD_LABELS = (("all", "All time"), ("trending", "Trending"), ("weekly", "This week"))


def card_file_delete_on_commit(key: str) -> None:
    """Delete a card's stored file once the transaction that dropped it commits."""

    def delete() -> None:
        try:
            get_storage().delete(key)
        except Exception:
            # The row is gone, so the address already answers 404; the file is an orphan.
            logger.exception("Could not delete the share card file %s", key)

    transaction.on_commit(delete)


def share_cards_drop(
    *, nomination_ids: list[int] | None = None, scout_id: int | None = None
) -> None:
    """Delete the cards of these nominations (or this scout); their files go at commit, and
    their previews leave the cache then, card or none (their subject stopped being public, or
    changed what it shows)."""
    previews_changed(
        nomination_ids=nomination_ids or (), scout_ids=() if scout_id is None else (scout_id,)
    )
    cards_ = ShareCard.objects.none()
    if nomination_ids:
        cards_ = ShareCard.objects.filter(nomination_id__in=nomination_ids)
    if scout_id is not None:
        cards_ = cards_ | ShareCard.objects.filter(scout_id=scout_id)
    for card in cards_:
        card.delete()


def share_cards_drop_for_player(player_id: int) -> None:
    """Delete the cards of every nomination of a player (a takedown hides them all)."""
    share_cards_drop(
        nomination_ids=list(
            Nomination.objects.filter(player_id=player_id).values_list("pk", flat=True)
        )
    )


def _footer() -> str:
    host = urlsplit(settings.PUBLIC_BASE_URL).netloc
    return f"Vote on {cards.BRAND}" + (f" · {host}" if host else "")


Boards = dict[str, list[dict[str, Any]]]


def _boards(sport: str) -> Boards:
    """The sport's three boards (their top 10), as the cards read their ranks."""
    return {kind: board_data(kind=kind, sport=sport) for kind, _ in BOARD_LABELS}  # type: ignore[arg-type]


def _ranks(nomination: Nomination, boards: Boards) -> tuple[tuple[str, int], ...]:
    """The nomination's rank on each of its sport's boards it is on."""
    ranks = []
    for kind, label in BOARD_LABELS:
        for entry in boards[kind]:
            if entry["id"] == nomination.pk:
                ranks.append((label, int(entry["rank"])))
                break
    return tuple(ranks)


def _digest(value: Any) -> str:
    encoded = json.dumps(value, sort_keys=True, default=str).encode()
    return hashlib.sha256(encoded).hexdigest()


def _store(
    *,
    subject: dict[str, int],
    inputs: str,
    count: int,
    png: bytes,
    name: str,
    still_public: Any,
    ranked: bool = False,
) -> ShareCard | None:
    """Write the image, then keep it as the subject's card if the subject is still public
    (checked under its lock); the replaced file goes at commit."""
    key = f"{KEY_PREFIX}{name}-{hashlib.sha256(png).hexdigest()[:20]}.png"
    storage = get_storage()
    storage.write(key, png, content_type=CONTENT_TYPE)
    try:
        with transaction.atomic():
            if not still_public():
                share_cards_drop(
                    nomination_ids=[subject["nomination_id"]]
                    if "nomination_id" in subject
                    else None,
                    scout_id=subject.get("scout_id"),
                )
                storage.delete(key)
                return None
            card = ShareCard.objects.select_for_update().filter(**subject).first()
            if card is not None and card.key != key:
                card_file_delete_on_commit(card.key)
            if card is None:
                card = ShareCard(**subject)
            card.key = key
            card.inputs = inputs
            card.count = count
            card.ranked = ranked
            card.width, card.height = cards.WIDTH, cards.HEIGHT
            card.save()
            # The preview names the new image and shows the count drawn on it.
            previews_changed(
                nomination_ids=[card.nomination_id] if card.nomination_id else (),
                scout_ids=[card.scout_id] if card.scout_id else (),
            )
            return card
    except Exception:
        storage.delete(key)
        raise


def share_card_render(
    *, nomination_id: int | None = None, scout_id: int | None = None
) -> ShareCard | None:
    """Draw and store the current card of a nomination or a scout, unless the one stored
    shows the same; drop it when the subject is not public. Returns the card kept, if any.
    Called by the background worker (and the ``share_cards`` command), never in a request."""
    if nomination_id is not None:
        return _render_nomination(nomination_id)
    if scout_id is not None:
        return _render_scout(scout_id)
    raise ValueError("Give a nomination_id or a scout_id")


def _render_nomination(nomination_id: int, boards: Boards | None = None) -> ShareCard | None:
    nomination = public_nomination(nomination_id)
    if nomination is None or not player_view(nomination.player, Audience.PUBLIC).share_card:
        # Not public, or a player the public gets the product's generic card of.
        with transaction.atomic():
            share_cards_drop(nomination_ids=[nomination_id])
        return None
    player = nomination.player
    view = player_view(player, Audience.PUBLIC)
    card = cards.NominationCard(
        name=view.name,
        position=player.position,
        sport=nomination.sport,
        club=view.club,
        age=player.age,
        graduation_year=player.graduation_year,
        votes=nomination.vote_count,
        ranks=_ranks(nomination, boards or _boards(nomination.sport)),
    )
    footer = _footer()
    sport_label = Sport(nomination.sport).label
    inputs = _digest(["nomination", card, sport_label, footer, cards.STYLE])
    current = getattr(nomination, "share_card", None)
    if current is not None and current.inputs == inputs:
        return current
    png = cards.nomination_card_png(card, sport_label=sport_label, footer=footer)

    def still_public() -> bool:
        locked = public_card_nominations().select_for_update(of=("self",)).filter(pk=nomination_id)
        return bool(list(locked.values_list("pk", flat=True)))

    return _store(
        subject={"nomination_id": nomination_id},
        inputs=inputs,
        count=nomination.vote_count,
        png=png,
        name=f"nomination-{nomination_id}",
        still_public=still_public,
        ranked=bool(card.ranks),
    )


def _render_scout(scout_id: int) -> ShareCard | None:
    scout = public_scout(scout_id)
    if scout is None:
        with transaction.atomic():
            share_cards_drop(scout_id=scout_id)
        return None
    card = cards.ScoutCard(
        name=scout.name or scout.username,
        username=scout.username,
        points=scout.points,
        nominations=scout.live_nominations,  # type: ignore[attr-defined]
    )
    footer = _footer()
    inputs = _digest(["scout", card, footer, cards.STYLE])
    current = getattr(scout, "share_card", None)
    if current is not None and current.inputs == inputs:
        return current
    png = cards.scout_card_png(card, footer=footer)

    def still_public() -> bool:
        locked = public_scouts().select_for_update(of=("self",)).filter(pk=scout_id)
        return bool(list(locked.values_list("pk", flat=True)))

    return _store(
        subject={"scout_id": scout_id},
        inputs=inputs,
        count=scout.points,
        png=png,
        name=f"scout-{scout_id}",
        still_public=still_public,
    )


def share_card_redraw(nomination_id: int) -> int:
    """The redraw a change of the nomination asked for (``redraws``): its card, then every
    card of its sport whose ranks may have moved with it, unless the redraw of another
    nomination of the sport is queued (its marker is there until it starts): that one
    redraws them later, from newer boards, so the sport's cards are redrawn once for the
    redraws queued together. Returns how many cards were looked at (each drawn only when
    what it shows changed)."""
    card_redraw_started(nomination_id)
    sport = Nomination.objects.filter(pk=nomination_id).values_list("sport", flat=True).first()
    if sport is None:
        return 0
    boards = _boards(sport)
    _render_nomination(nomination_id, boards)
    if CardRedraw.objects.filter(nomination__sport=sport).exists():
        return 1
    return 1 + share_cards_rerank(sport, boards=boards, skip=nomination_id)


def share_cards_rerank(sport: str, *, boards: Boards | None = None, skip: int = 0) -> int:
    """Redraw the sport's cards whose ranks moved: those of the nominations on its boards
    (at most 30) and those that showed a rank before (at most as many, unless the boards
    moved since they were drawn). Returns how many were looked at."""
    boards = boards or _boards(sport)
    on_boards = {int(entry["id"]) for entries in boards.values() for entry in entries}
    ranked_before = set(
        ShareCard.objects.filter(ranked=True, nomination__sport=sport).values_list(
            "nomination_id", flat=True
        )
    )
    candidates = sorted((on_boards | {pk for pk in ranked_before if pk}) - {skip})
    for pk in candidates:
        _render_nomination(pk, boards)
    return len(candidates)
