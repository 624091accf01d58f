"""What the product keeps about minors, and for how long (docs/privacy.md)."""

from __future__ import annotations

from project.settings.env import setting

PLAYER_RETENTION_MONTHS = setting(
    "PLAYER_RETENTION_MONTHS",
    24,
    "Months after which an unclaimed player with no vote, follow or edit is anonymised by the "
    "daily `anonymise_players` (its name reduced to a first initial, its club, nationality, "
    "skills and video cleared; its counts kept).",
)
