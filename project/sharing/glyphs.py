"""Text on the share cards in more than one font. The bundled DejaVu Sans draws Latin, Greek,
Cyrillic, Arabic and Hebrew; a character it lacks (a Chinese, Japanese or Korean name, an
emoji) is drawn in the first fallback font that has it (SHARE_CARD_FALLBACK_FONTS: Debian's
Noto CJK and Noto Color Emoji), and only a character no font has draws as a box. Which font
has which character is read from each font's character map (fontTools).

The text is cut into runs of one font each, drawn one after the other from the left on one
baseline; Pillow's Raqm layout shapes each run (right-to-left words within a run read as they
should). A colour emoji font has a single bitmap size: its runs are drawn at that size and
scaled to the text's.

What a card shows is cleaned first (``card_text``): bidirectional controls (U+202E, the
right-to-left override, and the others) would reorder what follows them, so they go, and
control characters a name stored before they were refused may hold become spaces."""

from __future__ import annotations

import logging
import math
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont, features

logger = logging.getLogger(__name__)

FONTS = Path(__file__).resolve().parent / "fonts"

# The Unicode bidirectional formatting characters: the Arabic letter mark, the left-to-right
# and right-to-left marks, embeddings and overrides with their pop, and the isolates.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def card_text(text: str) -> str:
    """``text`` as a card shows it: without bidirectional controls, with each run of
    whitespace and control characters one space, trimmed."""
    kept = "".join(
        " " if unicodedata.category(ch) == "Cc" else ch for ch in text if ch not in BIDI_CONTROLS
    )
    return " ".join(kept.split())


@dataclass(frozen=True)
class Face:
    """One font: a file, and which font of a collection (.ttc)."""

    path: str
    index: int = 0


def primary(*, bold: bool) -> Face:
    return Face(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")))


def fallbacks(*, bold: bool) -> tuple[Face, ...]:
    """The fallback fonts of SHARE_CARD_FALLBACK_FONTS that are there, in order."""
    return _fallbacks(tuple(settings.SHARE_CARD_FALLBACK_FONTS), "Bold" if bold else "Regular")


@lru_cache(maxsize=8)
def _fallbacks(entries: tuple[str, ...], weight: str) -> tuple[Face, ...]:
    faces = []
    for entry in entries:
        path, _, index = entry.replace("{weight}", weight).partition("#")
        if not Path(path).is_file():
            logger.warning("Share card fallback font %s is not installed (make fonts)", path)
            continue
        faces.append(Face(path, int(index or 0)))
    return tuple(faces)


@dataclass(frozen=True)
class _FaceInfo:
    codepoints: frozenset[int]
    # The one pixel size of a bitmap (colour emoji) font; None: scalable.
    bitmap_size: int | None


@lru_cache(maxsize=16)
def _info(face: Face) -> _FaceInfo:
    font = TTFont(face.path, fontNumber=face.index, lazy=True)
    try:
        codepoints = frozenset(font.getBestCmap() or {})
        bitmap_size = None
        if "glyf" not in font and "CFF " not in font and "CBLC" in font:
            bitmap_size = int(font["CBLC"].strikes[0].bitmapSizeTable.ppemY)
        return _FaceInfo(codepoints, bitmap_size)
    finally:
        font.close()


def has(face: Face, ch: str) -> bool:
    return ord(ch) in _info(face).codepoints


def _joins(ch: str) -> bool:
    """A character drawn with the one before it, in its font: a combining mark, the zero-width
    joiner of an emoji sequence, a variation selector, a skin tone, a flag's tag."""
    code = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Mc", "Me")
        or code == 0x200D
        or 0xFE00 <= code <= 0xFE0F
        or 0x1F3FB <= code <= 0x1F3FF
        or 0xE0020 <= code <= 0xE007F
    )


# The characters below U+1F000 that are emoji by default (Unicode's Emoji_Presentation):
# DejaVu draws some of them in black and white (a football), the emoji font in colour.
_EMOJI_PRESENTATION_BMP = (
    (0x231A, 0x231B), (0x23E9, 0x23EC), (0x23F0, 0x23F0), (0x23F3, 0x23F3),
    (0x25FD, 0x25FE), (0x2614, 0x2615), (0x2648, 0x2653), (0x267F, 0x267F),
    (0x2693, 0x2693), (0x26A1, 0x26A1), (0x26AA, 0x26AB), (0x26BD, 0x26BE),
    (0x26C4, 0x26C5), (0x26CE, 0x26CE), (0x26D4, 0x26D4), (0x26EA, 0x26EA),
    (0x26F2, 0x26F3), (0x26F5, 0x26F5), (0x26FA, 0x26FA), (0x26FD, 0x26FD),
    (0x2705, 0x2705), (0x270A, 0x270B), (0x2728, 0x2728), (0x274C, 0x274C),
    (0x274E, 0x274E), (0x2753, 0x2755), (0x2757, 0x2757), (0x2795, 0x2797),
    (0x27B0, 0x27B0), (0x27BF, 0x27BF), (0x2B1B, 0x2B1C), (0x2B50, 0x2B50),
    (0x2B55, 0x2B55),
)  # fmt: skip


def _emoji(ch: str, following: str) -> bool:
    """Whether ``ch`` shows as an emoji: one by default (the emoji planes' pictographs, and
    those of ``_EMOJI_PRESENTATION_BMP``) unless the text style selector (U+FE0E) follows it,
    or any character the emoji style selector (U+FE0F) follows."""
    if following == "\ufe0f":
        return True
    if following == "\ufe0e":
        return False
    code = ord(ch)
    if code >= 0x1F000:
        return True
    return any(low <= code <= high for low, high in _EMOJI_PRESENTATION_BMP)


def runs(text: str, *, bold: bool) -> list[tuple[str, Face]]:
    """``text`` cut into runs of one font each: each character in the first font that has it
    (DejaVu, then the fallbacks; an emoji in a colour font first), DejaVu when none has it; a
    joining character and a space stay in the run before them."""
    faces = (primary(bold=bold), *fallbacks(bold=bold))
    colour_first = sorted(faces, key=lambda face: _info(face).bitmap_size is None)
    cut: list[tuple[str, Face]] = []
    for position, ch in enumerate(text):
        if cut and (_joins(ch) or (ch.isspace() and has(cut[-1][1], ch))):
            cut[-1] = (cut[-1][0] + ch, cut[-1][1])
            continue
        order = colour_first if _emoji(ch, text[position + 1 : position + 2]) else faces
        face = next((face for face in order if has(face, ch)), faces[0])
        if cut and cut[-1][1] == face:
            cut[-1] = (cut[-1][0] + ch, face)
        else:
            cut.append((ch, face))
    return cut


def font(face: Face, size: int) -> ImageFont.FreeTypeFont:
    """The face at ``size`` pixels (a bitmap face at its one size)."""
    return _loaded(face, _info(face).bitmap_size or size)


# The cards' sizes (fitted in steps of 4) in both weights of each face.
@lru_cache(maxsize=256)
def _loaded(face: Face, size: int) -> ImageFont.FreeTypeFont:
    engine = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC
    return ImageFont.truetype(face.path, size, index=face.index, layout_engine=engine)


def _run_length(draw: ImageDraw.ImageDraw, run: str, face: Face, size: int) -> float:
    bitmap_size = _info(face).bitmap_size
    if bitmap_size is None:
        return float(draw.textlength(run, font=font(face, size)))
    length = draw.textlength(run, font=font(face, size), embedded_color=True)
    return float(length) * size / bitmap_size


def text_length(draw: ImageDraw.ImageDraw, text: str, *, size: int, bold: bool) -> float:
    """How wide ``text`` draws at ``size`` pixels."""
    return sum(_run_length(draw, run, face, size) for run, face in runs(text, bold=bold))


def draw_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    *,
    size: int,
    bold: bool,
    fill: tuple[int, int, int],
) -> None:
    """Draw ``text`` with its top-left at ``xy`` (the top of DejaVu's ascent, as Pillow's
    default anchor), every run on DejaVu's baseline."""
    draw = ImageDraw.Draw(image)
    x, top = xy
    baseline = top + font(primary(bold=bold), size).getmetrics()[0]
    for run, face in runs(text, bold=bold):
        bitmap_size = _info(face).bitmap_size
        if bitmap_size is None:
            draw.text((x, baseline), run, font=font(face, size), fill=fill, anchor="ls")
            x += _run_length(draw, run, face, size)
            continue
        # A colour bitmap font: drawn at its size on a transparent image, scaled to ``size``.
        big = font(face, size)
        ascent, descent = big.getmetrics()
        width = math.ceil(draw.textlength(run, font=big, embedded_color=True))
        layer = Image.new("RGBA", (max(width, 1), ascent + descent), (0, 0, 0, 0))
        ImageDraw.Draw(layer).text(
            (0, ascent), run, font=big, anchor="ls", embedded_color=True, fill=fill
        )
        scale = size / bitmap_size
        scaled = layer.resize(
            (max(round(layer.width * scale), 1), max(round(layer.height * scale), 1)),
            Image.Resampling.LANCZOS,
        )
        image.paste(scaled, (round(x), round(baseline - ascent * scale)), scaled)
        x += width * scale
