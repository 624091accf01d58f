"""Drawing of the share cards: 1200x630 PNGs (the size link previews show uncropped) with
Pillow, in the bundled DejaVu Sans (fonts/LICENSE) and, for what it lacks (Chinese, Japanese
and Korean names, emoji), the fallback fonts (``glyphs``). With Pillow's Raqm layout engine, a
right-to-left name is shaped and ordered as it reads; bidirectional controls in a name are
left out; a glyph no font has draws as a box, never as an error."""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from project.sharing.glyphs import card_text, draw_text, text_length

WIDTH = 1200
HEIGHT = 630
MARGIN = 72
BRAND = "ScoutVote"
BLUE = (29, 78, 216)
DARK_BLUE = (23, 37, 84)
WHITE = (255, 255, 255)
PALE = (191, 219, 254)
GOLD = (250, 204, 21)
# Part of what a stored card was drawn from (``services._digest``): a change to how cards
# draw the same inputs changes it, so each card is drawn again at its next render.
STYLE = 2


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


def _fit(
    draw: ImageDraw.ImageDraw, text: str, *, size: int, smallest: int, width: int, bold: bool
) -> tuple[str, int]:
    """The text as the card shows it (``card_text``) and the font size (from ``size`` down to
    ``smallest``) that fits it in ``width``; still too long at the smallest, the text is cut
    with an ellipsis."""
    text = card_text(text)
    while size > smallest and text_length(draw, text, size=size, bold=bold) > width:
        size -= 4
    if text_length(draw, text, size=size, bold=bold) <= width:
        return text, size
    while text and text_length(draw, text + "…", size=size, bold=bold) > width:
        text = text[:-1]
    return text.rstrip() + "…", size


def _canvas() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (WIDTH, HEIGHT), BLUE)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, HEIGHT - 96, WIDTH, HEIGHT), fill=DARK_BLUE)
    draw_text(image, (MARGIN, 56), BRAND, size=40, bold=True, fill=WHITE)
    return image, draw


def _line(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    top: int,
    text: str,
    *,
    size: int,
    smallest: int,
    bold: bool,
    fill: tuple[int, int, int],
) -> None:
    """One line of text at ``top``, fitted to the card's inner width."""
    line, fitted = _fit(
        draw, text, size=size, smallest=smallest, width=WIDTH - 2 * MARGIN, bold=bold
    )
    draw_text(image, (MARGIN, top), line, size=fitted, bold=bold, fill=fill)


def _footer(image: Image.Image, draw: ImageDraw.ImageDraw, text: str) -> None:
    _line(image, draw, HEIGHT - 66, text, size=30, smallest=22, bold=False, fill=PALE)


def _pill(image: Image.Image, draw: ImageDraw.ImageDraw, text: str) -> None:
    """The sport's label, top right."""
    width = text_length(draw, text, size=30, bold=True)
    left = WIDTH - MARGIN - width - 48
    draw.rounded_rectangle((left, 50, WIDTH - MARGIN, 106), radius=28, fill=WHITE)
    draw_text(image, (left + 24, 60), text, size=30, bold=True, fill=BLUE)


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def nomination_card_png(card: NominationCard, *, sport_label: str, footer: str) -> bytes:
    image, draw = _canvas()
    _pill(image, draw, sport_label)
    _line(image, draw, 150, card.name, size=84, smallest=44, bold=True, fill=WHITE)
    details = [card.position]
    if card.age is not None:
        details.append(f"Age {card.age}")
    if card.graduation_year is not None:
        details.append(f"Class of {card.graduation_year}")
    details.append(card.club)
    line = " · ".join(d for d in (card_text(d) for d in details) if d)
    _line(image, draw, 270, line, size=40, smallest=26, bold=False, fill=PALE)
    votes = f"{card.votes:,} vote" + ("" if card.votes == 1 else "s")
    draw_text(image, (MARGIN, 350), votes, size=64, bold=True, fill=GOLD)
    if card.ranks:
        ranks = " · ".join(f"#{rank} {label}" for label, rank in card.ranks)
    else:
        ranks = "Not on the boards yet: every vote counts"
    _line(image, draw, 444, ranks, size=36, smallest=26, bold=False, fill=WHITE)
    _footer(image, draw, footer)
    return _png(image)


def scout_card_png(card: ScoutCard, *, footer: str) -> bytes:
    image, draw = _canvas()
    _pill(image, draw, "Scout")
    _line(image, draw, 150, card.name, size=84, smallest=44, bold=True, fill=WHITE)
    _line(image, draw, 270, f"@{card.username}", size=40, smallest=26, bold=False, fill=PALE)
    points = f"{card.points:,} point" + ("" if card.points == 1 else "s")
    draw_text(image, (MARGIN, 350), points, size=64, bold=True, fill=GOLD)
    count = f"{card.nominations:,} nomination" + ("" if card.nominations == 1 else "s")
    draw_text(image, (MARGIN, 444), count, size=36, bold=False, fill=WHITE)
    _footer(image, draw, footer)
    return _png(image)


def site_card_png(*, footer: str) -> bytes:
    """The product's own card, for every page without a card of its own."""
    image, draw = _canvas()
    draw_text(image, (MARGIN, 170), "Discover young athletes", size=72, bold=True, fill=WHITE)
    draw_text(
        image,
        (MARGIN, 280),
        "Nominate, vote and climb the leaderboards.",
        size=40,
        bold=False,
        fill=PALE,
    )
    _footer(image, draw, footer)
    return _png(image)
