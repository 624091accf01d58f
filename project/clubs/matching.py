"""How a typed club name finds its record: the fold the search and a player's identity use
(``project.common.text.fold``: case, accents, punctuation and symbols aside), without spaces,
so "F.C. Porto", "FC Porto" and "fc  porto" are one key, within one sport."""

from __future__ import annotations

from project.common.text import fold

# The longest key kept (the name's column is as long).
KEY_MAX = 200


def club_key(name: str) -> str:
    """ "F.C. Porto" -> "fcporto"; "Atlético de Madrid" -> "atleticodemadrid"; "" for a name
    of no letter or digit."""
    return fold(name, symbols=False).replace(" ", "")[:KEY_MAX]


def club_display_name(name: str) -> str:
    """The name as typed, its runs of spaces made one (the record's name)."""
    return " ".join(name.split())[:KEY_MAX]
