"""How text is compared, the same way everywhere: searches (a stored folded key against the
folded query) and a player's identity."""

from __future__ import annotations

import re
import unicodedata

# A run of letters and digits, or one character that is neither a letter, a digit nor a space
# (kept when it is a symbol such as an emoji: see ``fold``).
_TOKENS = re.compile(r"[^\W_]+|[^\w\s]")
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


def _kept(token: str, symbols: bool) -> bool:
    return token[0].isalnum() or (symbols and unicodedata.category(token) == "So")


def fold(text: str, *, symbols: bool = True) -> str:
    """Lower-cased, accent-folded words (letters and digits) joined by single spaces: case,
    accents, spacing and punctuation do not matter, in any script. " Zoë Müller-Ñúñez "
    gives "zoe muller nunez", and so do "ZOË MÜLLER ÑÚÑEZ" and "zoe muller-nunez".

    A symbol (Unicode's "other symbol": an emoji such as "⚽", "©") is a word of its own, so a
    search for it finds it; its variation selectors and skin tones are left out. With
    ``symbols=False`` symbols are left out as punctuation is: a player's identity is their
    name's letters, and "Leo ⚽" is "Leo"."""
    folded = _bare(_bare(text).casefold()).translate(_SPELLED)
    return " ".join(token for token in _TOKENS.findall(folded) if _kept(token, symbols))


# Line and paragraph separators break a line as CR and LF do (str.splitlines splits on them).
_LINE_SEPARATORS = frozenset("\u2028\u2029\x85")


def _breaks_a_line(ch: str) -> bool:
    """A control character (C0 and C1, with CR, LF and TAB, and DEL) or a line separator."""
    return ch in _LINE_SEPARATORS or unicodedata.category(ch) == "Cc"


def has_control_characters(text: str) -> bool:
    """Whether ``text`` holds a control character or a line break: what a one-line value (a
    name, a club) never holds, and what an email header must not."""
    return any(_breaks_a_line(ch) for ch in text)


def one_line(text: str) -> str:
    """``text`` with each run of control characters, line breaks and the spaces around them
    made one space: a value written before names refused them, made safe for an email
    header."""
    if not has_control_characters(text):
        return text
    cleaned = "".join(" " if _breaks_a_line(ch) else ch for ch in text)
    return " ".join(cleaned.split())
