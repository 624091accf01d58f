"""Boards (project/scouting/boards/maths.py)."""

from __future__ import annotations

from project.settings.env import setting

BOARD_TRENDING_HALF_LIFE = setting(
    "BOARD_TRENDING_HALF_LIFE",
    86400.0,
    "Seconds in which trending halves a vote's weight (changing it needs `manage.py "
    "boards_rebuild`: the stored scores carry it).",
    shown="86400",
)
BOARD_WEEK_TIME_ZONE = setting(
    "BOARD_WEEK_TIME_ZONE",
    "UTC",
    "The time zone of the weekly board's ISO weeks (Monday 00:00).",
)
