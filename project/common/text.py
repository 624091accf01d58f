"""How text is compared, the same way everywhere: searches (a stored folded key against the
folded query) and a player's identity."""

from __future__ import annotations

import re
import unicodedata

_WORDS = re.compile(r"[^\W_]+")
# Apostrophes join a word ("O'Brien" is "obrien"); letters that Unicode does not decompose
# into a base letter and an accent are spelled as their base letters.
_SPELLED = str.maketrans(
    {
        "'": None,
        "\u2019": None,
        "\u02bc": None,
        "ł": "l",
        "ø": "o",
        "đ": "d",
        "ħ": "h",
        "\u0131": "i",  # dotless i
        "æ": "ae",
        "œ": "oe",
        "þ": "th",
    }
)


def _bare(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def fold(text: str) -> str:
    """Lower-cased, accent-folded words (letters and digits) joined by single spaces: case,
    accents, spacing and punctuation do not matter, in any script. " Zoë Müller-Ñúñez "
    gives "zoe muller nunez", and so do "ZOË MÜLLER ÑÚÑEZ" and "zoe muller-nunez"."""
    return " ".join(_WORDS.findall(_bare(_bare(text).casefold()).translate(_SPELLED)))
