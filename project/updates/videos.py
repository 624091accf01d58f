"""Video links an update may carry: YouTube, Vimeo and Hudl only, each shown through its
privacy-enhanced embed (youtube-nocookie.com, Vimeo's player with ``dnt=1``, Hudl's embed),
which the page loads only when the reader clicks."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

VIDEO_HOST_REFUSED = "Video links must be YouTube, Vimeo or Hudl addresses"
VIDEO_LINK_INVALID = "This video link cannot be shown: paste the video's own address"

_YOUTUBE_ID = re.compile(r"^[A-Za-z0-9_-]{11}$")
_VIMEO_ID = re.compile(r"^[0-9]{1,12}$")
_HUDL_PATH = re.compile(r"^/(?:embed/)?video/([A-Za-z0-9_/-]{1,200})$")
_YOUTUBE_HOSTS = {
    "youtube.com",
    "www.youtube.com",
    "m.youtube.com",
    "youtu.be",
    "youtube-nocookie.com",
    "www.youtube-nocookie.com",
}
_VIMEO_HOSTS = {"vimeo.com", "www.vimeo.com", "player.vimeo.com"}
_HUDL_HOSTS = {"hudl.com", "www.hudl.com"}


class VideoRefused(ValueError):
    """A link outside the three hosts, or one of theirs that names no video."""


@dataclass(frozen=True)
class Video:
    host: str  # youtube, vimeo or hudl
    embed_url: str


def _youtube_id(path: str, query: str, host: str) -> str | None:
    if host == "youtu.be":
        candidate = path.strip("/")
    elif path in ("/watch", "/watch/"):
        candidate = (parse_qs(query).get("v") or [""])[0]
    else:
        parts = [part for part in path.split("/") if part]
        candidate = parts[1] if len(parts) == 2 and parts[0] in ("embed", "shorts", "live") else ""
    return candidate if _YOUTUBE_ID.match(candidate) else None


def video_of(url: str) -> Video:
    """The embed of a video link; raises ``VideoRefused`` with the message to show."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        raise VideoRefused(VIDEO_LINK_INVALID) from None
    host = (parts.hostname or "").lower()
    if parts.scheme not in ("http", "https") or not host:
        raise VideoRefused(VIDEO_LINK_INVALID)
    if host in _YOUTUBE_HOSTS:
        video_id = _youtube_id(parts.path, parts.query, host)
        if video_id is None:
            raise VideoRefused(VIDEO_LINK_INVALID)
        return Video("youtube", f"https://www.youtube-nocookie.com/embed/{video_id}")
    if host in _VIMEO_HOSTS:
        segments = [part for part in parts.path.split("/") if part]
        if host == "player.vimeo.com" and segments[:1] == ["video"]:
            segments = segments[1:]
        if len(segments) != 1 or not _VIMEO_ID.match(segments[0]):
            raise VideoRefused(VIDEO_LINK_INVALID)
        return Video("vimeo", f"https://player.vimeo.com/video/{segments[0]}?dnt=1")
    if host in _HUDL_HOSTS:
        match = _HUDL_PATH.match(parts.path)
        if match is None or ".." in match.group(1):
            raise VideoRefused(VIDEO_LINK_INVALID)
        return Video("hudl", f"https://www.hudl.com/embed/video/{match.group(1)}")
    raise VideoRefused(VIDEO_HOST_REFUSED)
