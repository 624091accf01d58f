"""Link previews: the title, description, Open Graph and Twitter card tags the SPA's page
carries for its address, so a link pasted in a chat or a social network shows the player.
Crawlers run no JavaScript; every client gets the same tags (nothing depends on the
requester). Only an approved nomination (and a public scout) unfolds into a card: a pending,
rejected, removed or hidden one, and whatever an anonymous visitor cannot see, gets the
product's generic tags (``selectors.public_nominations``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from django.utils.html import escape

from project.common.choices import Sport
from project.privacy.players import Audience, player_view
from project.sharing import cards
from project.sharing.cache import NOMINATION, SCOUT, preview_cached
from project.sharing.selectors import public_nomination, public_scout

SITE_NAME = cards.BRAND
GENERIC_TITLE = SITE_NAME
GENERIC_DESCRIPTION = (
    "ScoutVote: community-powered discovery of young athletes. Nominate, vote and climb the "
    "leaderboards."
)
# The product's own card, built with the SPA (frontend/public/share-card.png).
SITE_CARD_PATH = "/static/share-card.png"
DESCRIPTION_MAX = 200

_NOMINATION = re.compile(r"^/nominations/([0-9]{1,18})/?$")
_SCOUT = re.compile(r"^/scout/([0-9]{1,18})/?$")
_PAGES = {
    "/results": (
        "Results: the leaderboards | ScoutVote",
        "The most voted young athletes of every sport: all time, trending and this week.",
    ),
    "/wall": (
        "The live wall | ScoutVote",
        "Votes and nominations as they happen, on the big screen.",
    ),
}


@dataclass(frozen=True)
class Preview:
    title: str
    description: str
    path: str  # the canonical address's path
    image_path: str
    image_width: int = cards.WIDTH
    image_height: int = cards.HEIGHT
    type: str = "website"
    # Whether search engines may index the page: a player's page only when its claimant
    # allows it (``robots`` below and the X-Robots-Tag header of the page).
    indexable: bool = True


GENERIC = Preview(
    title=GENERIC_TITLE, description=GENERIC_DESCRIPTION, path="/", image_path=SITE_CARD_PATH
)


def _card_path(key: str) -> str:
    return "/media/" + key


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= DESCRIPTION_MAX else text[: DESCRIPTION_MAX - 1].rstrip() + "…"


def _votes(count: int) -> str:
    return f"{count:,} community vote" + ("" if count == 1 else "s")


# A player's page the public does not see: the generic tags, and not to be indexed.
GENERIC_PLAYER = Preview(
    title=GENERIC_TITLE,
    description=GENERIC_DESCRIPTION,
    path="/",
    image_path=SITE_CARD_PATH,
    indexable=False,
)


def _nomination_preview(nomination_id: int) -> Preview:
    return preview_cached(NOMINATION, nomination_id, _nomination_read) or GENERIC_PLAYER


def _scout_preview(user_id: int) -> Preview:
    return preview_cached(SCOUT, user_id, _scout_read) or GENERIC


def _nomination_read(nomination_id: int) -> Preview | None:
    nomination = public_nomination(nomination_id)
    if nomination is None:
        return None
    player = nomination.player
    # What the public may see of the player (project/privacy): a child's first name and
    # initial, what a claimant allows.
    view = player_view(player, Audience.PUBLIC)
    if not view.link_preview:
        return Preview(
            title=GENERIC_TITLE,
            description=GENERIC_DESCRIPTION,
            path=f"/nominations/{nomination.pk}",
            image_path=SITE_CARD_PATH,
            indexable=view.indexable,
        )
    sport = Sport(nomination.sport).label
    facts = [player.position, sport]
    if player.age is not None:
        facts.append(f"age {player.age}")
    if player.graduation_year is not None:
        facts.append(f"class of {player.graduation_year}")
    if view.club:
        facts.append(view.club)
    card = getattr(nomination, "share_card", None) if view.share_card else None
    return Preview(
        title=f"{view.name} ({player.position}, {sport}) | {SITE_NAME}",
        description=_short(
            f"{view.name}: {', '.join(facts)}. {_votes(nomination.vote_count)} on "
            f"{SITE_NAME}. Add yours."
        ),
        path=f"/nominations/{nomination.pk}",
        image_path=_card_path(card.key) if card is not None else SITE_CARD_PATH,
        type="profile",
        indexable=view.indexable,
    )


def _scout_read(user_id: int) -> Preview | None:
    scout = public_scout(user_id)
    if scout is None:
        return None
    name = scout.name or scout.username
    count = scout.live_nominations  # type: ignore[attr-defined]
    card = getattr(scout, "share_card", None)
    return Preview(
        title=f"{name} (@{scout.username}), scout | {SITE_NAME}",
        description=_short(
            f"{name} scouts on {SITE_NAME}: {scout.points:,} points, {count:,} nomination"
            + ("" if count == 1 else "s")
            + "."
        ),
        path=f"/scout/{scout.pk}",
        image_path=_card_path(card.key) if card is not None else SITE_CARD_PATH,
        type="profile",
    )


def preview_for(path: str) -> Preview:
    """The preview of an SPA address: a player's or a scout's from the preview cache (one
    query on a miss), none for a static page."""
    if match := _NOMINATION.match(path):
        return _nomination_preview(int(match.group(1)))
    if match := _SCOUT.match(path):
        return _scout_preview(int(match.group(1)))
    normalized = path.rstrip("/")
    if normalized in _PAGES:
        title, description = _PAGES[normalized]
        return Preview(
            title=title, description=description, path=normalized, image_path=SITE_CARD_PATH
        )
    return GENERIC


def preview_tags(preview: Preview, *, base_url: str) -> str:
    """The head's tags, every value escaped for an HTML attribute or text."""
    title = escape(preview.title)
    description = escape(preview.description)
    url = escape(base_url + preview.path)
    image = escape(base_url + preview.image_path)
    metas = [
        ("name", "description", description),
        ("property", "og:site_name", escape(SITE_NAME)),
        ("property", "og:type", preview.type),
        ("property", "og:title", title),
        ("property", "og:description", description),
        ("property", "og:url", url),
        ("property", "og:image", image),
        ("property", "og:image:type", "image/png"),
        ("property", "og:image:width", str(preview.image_width)),
        ("property", "og:image:height", str(preview.image_height)),
        ("property", "og:image:alt", title),
        ("name", "twitter:card", "summary_large_image"),
        ("name", "twitter:title", title),
        ("name", "twitter:description", description),
        ("name", "twitter:image", image),
    ]
    lines = [f"<title>{title}</title>", f'<link rel="canonical" href="{url}" />']
    if not preview.indexable:
        lines.append('<meta name="robots" content="noindex" />')
    lines += [f'<meta {attr}="{key}" content="{value}" />' for attr, key, value in metas]
    return "\n    ".join(lines)


_TITLE = re.compile(r"\s*<title>.*?</title>", re.DOTALL | re.IGNORECASE)
_DESCRIPTION = re.compile(r'\s*<meta\s+name="description"[^>]*>', re.DOTALL | re.IGNORECASE)


@lru_cache(maxsize=2)
def split_index(html: str) -> tuple[str, str]:
    """The SPA's page cut where the tags go (before ``</head>``), without its own title and
    description: read once per build, as the page is."""
    html = _DESCRIPTION.sub("", _TITLE.sub("", html, count=1), count=1)
    at = html.lower().find("</head>")
    if at < 0:
        return html, ""
    return html[:at], html[at:]


def page_with_preview(html: str, preview: Preview, *, base_url: str) -> str:
    head, tail = split_index(html)
    return f"{head}  {preview_tags(preview, base_url=base_url)}\n  {tail}"
