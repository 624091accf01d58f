"""Drawing of the share cards: 1200x630 PNGs (the size link previews show uncropped) with
Pillow and the bundled DejaVu Sans (fonts/LICENSE). With Pillow's Raqm layout engine, a
right-to-left name is shaped and ordered as it reads; glyphs DejaVu lacks draw as boxes,
never as an error."""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

WIDTH = 1200
HEIGHT = 630
MARGIN = 72
BRAND = "ScoutVote"
BLUE = (29, 78, 216)
DARK_BLUE = (23, 37, 84)
WHITE = (255, 255, 255)
PALE = (191, 219, 254)
GOLD = (250, 204, 21)
FONTS = Path(__file__).resolve().parent / "fonts"


@dataclass(frozen=True)
class NominationCard:
    name: str
    position: str
    sport: str
    club: str
    age: int | None
    graduation_year: int | None
    votes: int
    # (board label, rank) for each board the nomination is on.
    ranks: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class ScoutCard:
    name: str
    username: str
    points: int
    nominations: int


@lru_cache(maxsize=32)
def _font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    engine = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size, layout_engine=engine)


def _fit(
    draw: ImageDraw.ImageDraw, text: str, *, size: int, smallest: int, width: int, bold: bool
) -> tuple[str, ImageFont.FreeTypeFont]:
    """The font size (from ``size`` down to ``smallest``) that fits ``text`` in ``width``;
    still too long at the smallest, the text is cut with an ellipsis."""
    text = " ".join(text.split())
    while size > smallest and draw.textlength(text, font=_font(size, bold=bold)) > width:
        size -= 4
    font = _font(size, bold=bold)
    if draw.textlength(text, font=font) <= width:
        return text, font
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text.rstrip() + "…", font


def _canvas() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (WIDTH, HEIGHT), BLUE)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, HEIGHT - 96, WIDTH, HEIGHT), fill=DARK_BLUE)
    draw.text((MARGIN, 56), BRAND, font=_font(40, bold=True), fill=WHITE)
    return image, draw


def _footer(draw: ImageDraw.ImageDraw, text: str) -> None:
    line, font = _fit(draw, text, size=30, smallest=22, width=WIDTH - 2 * MARGIN, bold=False)
    draw.text((MARGIN, HEIGHT - 66), line, font=font, fill=PALE)


def _pill(draw: ImageDraw.ImageDraw, text: str) -> None:
    """The sport's label, top right."""
    font = _font(30, bold=True)
    width = draw.textlength(text, font=font)
    left = WIDTH - MARGIN - width - 48
    draw.rounded_rectangle((left, 50, WIDTH - MARGIN, 106), radius=28, fill=WHITE)
    draw.text((left + 24, 60), text, font=font, fill=BLUE)


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def nomination_card_png(card: NominationCard, *, sport_label: str, footer: str) -> bytes:
    image, draw = _canvas()
    _pill(draw, sport_label)
    inner = WIDTH - 2 * MARGIN
    name, font = _fit(draw, card.name, size=84, smallest=44, width=inner, bold=True)
    draw.text((MARGIN, 150), name, font=font, fill=WHITE)
    details = [card.position]
    if card.age is not None:
        details.append(f"Age {card.age}")
    if card.graduation_year is not None:
        details.append(f"Class of {card.graduation_year}")
    details.append(card.club)
    line, font = _fit(
        draw, " · ".join(d for d in details if d), size=40, smallest=26, width=inner, bold=False
    )
    draw.text((MARGIN, 270), line, font=font, fill=PALE)
    votes = f"{card.votes:,} vote" + ("" if card.votes == 1 else "s")
    draw.text((MARGIN, 350), votes, font=_font(64, bold=True), fill=GOLD)
    if card.ranks:
        ranks = " · ".join(f"#{rank} {label}" for label, rank in card.ranks)
    else:
        ranks = "Not on the boards yet: every vote counts"
    line, font = _fit(draw, ranks, size=36, smallest=26, width=inner, bold=False)
    draw.text((MARGIN, 444), line, font=font, fill=WHITE)
    _footer(draw, footer)
    return _png(image)


def scout_card_png(card: ScoutCard, *, footer: str) -> bytes:
    image, draw = _canvas()
    _pill(draw, "Scout")
    inner = WIDTH - 2 * MARGIN
    name, font = _fit(draw, card.name, size=84, smallest=44, width=inner, bold=True)
    draw.text((MARGIN, 150), name, font=font, fill=WHITE)
    handle, font = _fit(draw, f"@{card.username}", size=40, smallest=26, width=inner, bold=False)
    draw.text((MARGIN, 270), handle, font=font, fill=PALE)
    points = f"{card.points:,} point" + ("" if card.points == 1 else "s")
    draw.text((MARGIN, 350), points, font=_font(64, bold=True), fill=GOLD)
    count = f"{card.nominations:,} nomination" + ("" if card.nominations == 1 else "s")
    draw.text((MARGIN, 444), count, font=_font(36), fill=WHITE)
    _footer(draw, footer)
    return _png(image)


def site_card_png(*, footer: str) -> bytes:
    """The product's own card, for every page without a card of its own."""
    image, draw = _canvas()
    draw.text((MARGIN, 170), "Discover young athletes", font=_font(72, bold=True), fill=WHITE)
    draw.text(
        (MARGIN, 280),
        "Nominate, vote and climb the leaderboards.",
        font=_font(40),
        fill=PALE,
    )
    _footer(draw, footer)
    return _png(image)
