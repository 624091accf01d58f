"""Link previews and share cards (project/sharing)."""

from __future__ import annotations

from project.settings.env import setting
from project.settings.live import REDIS_URL

SHARE_PREVIEW_TTL = setting(
    "SHARE_PREVIEW_TTL",
    60,
    "Seconds a nomination's or scout's preview stays in the shared cache at most (writes "
    "invalidate it at commit; the TTL bounds a lost invalidation).",
)
# Previews are cached only in a cache every process shares (Redis): a process's own memory
# would miss the invalidations other processes make.
SHARE_PREVIEW_CACHE = setting(
    "SHARE_PREVIEW_CACHE",
    bool(REDIS_URL),
    "Cache link previews' data per nomination or scout, invalidated at commit.",
    shown="on when `REDIS_URL` is set",
)
SHARE_PREVIEW_LOCAL_TTL = setting(
    "SHARE_PREVIEW_LOCAL_TTL",
    5.0,
    "Seconds a preview stays at most in a process's own memory in front of that cache, used "
    "only while the process is subscribed to the invalidations on Redis; 0: no local layer.",
    shown="5",
)
SHARE_CARD_REDRAW_DELAY = setting(
    "SHARE_CARD_REDRAW_DELAY",
    10.0,
    "Seconds a vote's card redraw waits, so that the votes of a burst share one redraw.",
    shown="10",
)
# Debian's fonts-noto-cjk and fonts-noto-color-emoji (`make fonts`, the Dockerfile); a path
# that is not there is left out; an empty value: DejaVu alone (boxes for what it lacks).
SHARE_CARD_FALLBACK_FONTS = [
    path.strip()
    for path in setting(
        "SHARE_CARD_FALLBACK_FONTS",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-{weight}.ttc#2,"
        "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
        "Comma-separated fonts a share card draws a character in when DejaVu Sans has none, "
        "in order (`{weight}`: Regular or Bold; `#N`: a font in a collection; empty: DejaVu "
        "alone).",
    ).split(",")
    if path.strip()
]
