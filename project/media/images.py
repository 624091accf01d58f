"""What an uploaded avatar must be: a real PNG, JPEG, GIF or WebP image, within size limits."""

from __future__ import annotations

from io import BytesIO

from PIL import Image, UnidentifiedImageError

NOT_AN_IMAGE = "The file is not a supported image (PNG, JPEG, GIF or WebP)"
TOO_LARGE = "The image must be at most {megabytes:g} MB"
TOO_MANY_PIXELS = "The image must be at most {limit}x{limit} pixels"

UPLOAD_CONTENT_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp")

# Leading bytes of each accepted format: (content type, Pillow format, prefix, offset).
_SIGNATURES = (
    ("image/png", "PNG", b"\x89PNG\r\n\x1a\n", 0),
    ("image/jpeg", "JPEG", b"\xff\xd8\xff", 0),
    ("image/gif", "GIF", b"GIF87a", 0),
    ("image/gif", "GIF", b"GIF89a", 0),
    ("image/webp", "WEBP", b"WEBP", 8),  # after b"RIFF" and the chunk size
)


def too_large_message(max_bytes: int) -> str:
    return TOO_LARGE.format(megabytes=max_bytes / 1_048_576)


class ImageRejected(Exception):
    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def _sniff(data: bytes) -> tuple[str, str] | None:
    for content_type, pillow_format, prefix, offset in _SIGNATURES:
        if data[offset : offset + len(prefix)] == prefix and (offset == 0 or data[:4] == b"RIFF"):
            return content_type, pillow_format
    return None


def inspect_image(data: bytes, *, max_bytes: int, max_dimension: int) -> str:
    """The content type of an acceptable avatar, or ``ImageRejected`` saying why not.

    Pillow opens lazily: only the header is parsed, no pixel is decoded."""
    if len(data) > max_bytes:
        raise ImageRejected(too_large_message(max_bytes), "image_too_large")
    sniffed = _sniff(data)
    if sniffed is None:
        raise ImageRejected(NOT_AN_IMAGE, "not_an_image")
    content_type, pillow_format = sniffed
    try:
        with Image.open(BytesIO(data), formats=[pillow_format]) as image:
            width, height = image.size
    except Image.DecompressionBombError:
        width = height = max_dimension + 1
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise ImageRejected(NOT_AN_IMAGE, "not_an_image") from None
    if width > max_dimension or height > max_dimension:
        raise ImageRejected(TOO_MANY_PIXELS.format(limit=max_dimension), "image_too_many_pixels")
    return content_type
