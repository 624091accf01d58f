"""Share cards draw Chinese, Japanese and Korean names and emoji in the fallback fonts (Debian's
Noto CJK and Noto Color Emoji, `make fonts`) instead of DejaVu's empty boxes, and leave the
bidirectional controls of a name out."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from project.sharing import cards, glyphs

NAME_ROW = (cards.MARGIN, 150, cards.WIDTH - cards.MARGIN, 250)


@pytest.fixture(autouse=True)
def _fonts_installed(settings: Any) -> None:
    missing = [
        path
        for entry in settings.SHARE_CARD_FALLBACK_FONTS
        for weight in ("Regular", "Bold")
        if not Path(path := entry.replace("{weight}", weight).partition("#")[0]).is_file()
    ]
    assert not missing, f"Install the share cards' fallback fonts (make fonts): {missing}"


def card(name: str, club: str = "FC Example") -> Image.Image:
    png = cards.nomination_card_png(
        cards.NominationCard(
            name=name,
            position="Winger",
            sport="football",
            club=club,
            age=15,
            graduation_year=None,
            votes=3,
            ranks=(),
        ),
        sport_label="Football",
        footer="Vote on ScoutVote",
    )
    return Image.open(io.BytesIO(png)).convert("RGB")


def name_row(image: Image.Image) -> Image.Image:
    return image.crop(NAME_ROW)


def pixels(image: Image.Image) -> list[tuple[int, ...]]:
    data = image.tobytes()
    return [tuple(data[i : i + 3]) for i in range(0, len(data), 3)]


def coloured_pixels(image: Image.Image) -> int:
    """Pixels of a warm colour (an emoji's yellow, orange or red): neither the card's blue nor
    the white of its text, nor their blends."""
    return sum(1 for r, _, b in pixels(image) if r > 180 and b < 120 and r - b > 100)


def test_each_character_is_drawn_in_a_font_that_has_it() -> None:
    cut = glyphs.runs("Mia 王小明 😀⚽ 김민준", bold=True)
    fonts = [(text, Path(face.path).name) for text, face in cut]
    assert fonts == [
        ("Mia ", "DejaVuSans-Bold.ttf"),
        ("王小明 ", "NotoSansCJK-Bold.ttc"),
        ("😀⚽ ", "NotoColorEmoji.ttf"),
        ("김민준", "NotoSansCJK-Bold.ttc"),
    ]
    # An emoji sequence (a family: three emoji and two joiners) stays in one run.
    assert [Path(face.path).name for _, face in glyphs.runs("👨\u200d👩\u200d👧", bold=True)] == [
        "NotoColorEmoji.ttf"
    ]


def test_cjk_and_emoji_names_are_drawn_not_boxed(settings: Any) -> None:
    drawn = {name: name_row(card(name)) for name in ("王小明", "😀⚽")}
    settings.SHARE_CARD_FALLBACK_FONTS = []
    boxed = {name: name_row(card(name)) for name in drawn}

    # Without the fallbacks every character is DejaVu's box: the two names draw the same
    # boxes (two and three of them, each name's length), and no colour.
    assert glyphs.runs("王小明", bold=True) == [("王小明", glyphs.primary(bold=True))]
    for name in drawn:
        assert ImageChops.difference(drawn[name], boxed[name]).getbbox() is not None, name
    # The CJK name is ink of the text's white (strokes, not boxes' outlines): more of it.
    white = {
        key: sum(1 for p in pixels(row) if p == cards.WHITE)
        for key, row in (
            ("drawn", drawn["王小明"]),
            ("boxed", boxed["王小明"]),
        )
    }
    assert white["drawn"] > white["boxed"] * 1.5, white
    # The emoji are in colour.
    assert coloured_pixels(drawn["😀⚽"]) > 500
    assert coloured_pixels(boxed["😀⚽"]) == 0


def test_bidi_controls_are_left_out_of_a_name() -> None:
    spoof = "Evil\u202egnp.exe\u202c Name\u2066\u200f"
    assert glyphs.card_text(spoof) == "Evilgnp.exe Name"
    assert glyphs.card_text("Ann\r\nLee\t\x1b") == "Ann Lee"
    assert card(spoof).tobytes() == card("Evilgnp.exe Name").tobytes()
    # The right-to-left override would have drawn what follows it reversed.
    assert card(spoof).tobytes() != card("Evilexe.gnp Name").tobytes()


def test_a_fallback_font_that_is_not_installed_is_left_out(settings: Any, tmp_path: Path) -> None:
    settings.SHARE_CARD_FALLBACK_FONTS = [
        str(tmp_path / "missing.ttf"),
        "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
    ]
    assert [Path(face.path).name for face in glyphs.fallbacks(bold=False)] == ["NotoColorEmoji.ttf"]
    assert coloured_pixels(name_row(card("Ada 😀"))) > 200
