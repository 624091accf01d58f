"""What an uploaded avatar must be, and what of it is kept.

Pillow decides what the file is (PNG, JPEG, GIF or WebP, by its content, whatever it is called
or claims to be), checks it and decodes it; the stored avatar is a fresh encoding of the decoded
pixels in the same format, so nothing else of the upload reaches a public address: no EXIF (GPS
positions, camera serial numbers), no XMP, no comments or text chunks, no bytes appended after
the image. Kept: the pixels, the ICC colour profile and GIF/PNG transparency.

Animated GIFs, WebPs and PNGs keep their first frame only: an avatar is a small still picture,
and decoding one frame bounds the work a 5 MB upload can ask for (a GIF of that size can hold
thousands of full-size frames).

A few kilobytes of PNG can hold millions of pixels, and a decoded frame takes 4 bytes a pixel:
the header is checked against a side and a pixel limit before anything is decoded, and a
per-process semaphore caps the images decoded at once (``AVATAR_DECODE_CONCURRENCY``), so N
parallel confirmations cost at most that many decoded frames; the others wait their turn.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from io import BytesIO
from typing import Any

from PIL import Image, ImageOps

from project.common.slots import Slots

NOT_AN_IMAGE = "The file is not a supported image (PNG, JPEG, GIF or WebP)"
TOO_LARGE = "The image must be at most {megabytes:g} MB"
TOO_MANY_PIXELS = "The image must be at most {limit}x{limit} pixels"
TOO_MANY_MEGAPIXELS = "The image must be at most {megapixels:g} megapixels"

UPLOAD_CONTENT_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp")

# The Pillow plugins allowed to open an upload, and the content type each format is served as.
_OPEN_FORMATS = ("PNG", "JPEG", "GIF", "WEBP")
_CONTENT_TYPES = {
    "PNG": "image/png",
    "JPEG": "image/jpeg",
    "MPO": "image/jpeg",  # a JPEG with extra frames (some cameras): the first is kept
    "GIF": "image/gif",
    "WEBP": "image/webp",
}
# How each format is written again: (Pillow format, save options).
_ENCODINGS: dict[str, tuple[str, dict[str, Any]]] = {
    "image/png": ("PNG", {}),
    "image/jpeg": ("JPEG", {"quality": 85}),
    "image/gif": ("GIF", {}),
    "image/webp": ("WEBP", {"quality": 85}),
}
# What of the decoded image's ``info`` is written again: nothing that says who, where or how.
_KEPT_INFO = ("icc_profile", "transparency")


def too_large_message(max_bytes: int) -> str:
    return TOO_LARGE.format(megabytes=max_bytes / 1_048_576)


def too_many_megapixels_message(max_pixels: int) -> str:
    return TOO_MANY_MEGAPIXELS.format(megapixels=round(max_pixels / 1_000_000, 1))


_slots = Slots("AVATAR_DECODE_CONCURRENCY")


@contextmanager
def decoding_slot() -> Iterator[None]:
    """Hold one of the process's decoding slots while an image is decoded and written again."""
    with _slots.held():
        yield


class ImageRejected(Exception):
    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass(frozen=True)
class CleanImage:
    """The bytes to store (re-encoded) and the content type to serve them with."""

    data: bytes
    content_type: str


def _open(data: bytes) -> Image.Image:
    return Image.open(BytesIO(data), formats=_OPEN_FORMATS)


def _probe(data: bytes, *, max_dimension: int, max_pixels: int) -> str:
    """The content type, from the header alone (no pixel decoded), after ``verify()``."""
    with _open(data) as image:
        content_type = _CONTENT_TYPES.get(image.format or "")
        if content_type is None:
            raise ImageRejected(NOT_AN_IMAGE, "not_an_image")
        width, height = image.size
        if width > max_dimension or height > max_dimension:
            raise ImageRejected(
                TOO_MANY_PIXELS.format(limit=max_dimension), "image_too_many_pixels"
            )
        if width * height > max_pixels:
            raise ImageRejected(too_many_megapixels_message(max_pixels), "image_too_many_pixels")
        image.verify()
    return content_type


def _reencode(data: bytes, content_type: str) -> bytes:
    """Decode the first frame in full (a truncated or corrupt file fails here) and write it
    again with only the kept metadata."""
    with _open(data) as image:
        image.seek(0)
        image.load()
        kept: dict[str | tuple[int, int], Any] = {
            key: image.info[key] for key in _KEPT_INFO if key in image.info
        }
        # The EXIF orientation is applied to the pixels, since the EXIF block itself goes
        # (in place: a copy would double the frame's memory).
        ImageOps.exif_transpose(image, in_place=True)
        frame: Image.Image = image
        pillow_format, options = _ENCODINGS[content_type]
        if pillow_format == "JPEG" and frame.mode not in ("RGB", "L"):
            frame = frame.convert("RGB")
        frame.info = kept
        out = BytesIO()
        frame.save(out, format=pillow_format, **options)
    return out.getvalue()


def clean_image(data: bytes, *, max_bytes: int, max_dimension: int, max_pixels: int) -> CleanImage:
    """The avatar to store for an upload, or ``ImageRejected`` saying why there is none."""
    if len(data) > max_bytes:
        raise ImageRejected(too_large_message(max_bytes), "image_too_large")
    try:
        content_type = _probe(data, max_dimension=max_dimension, max_pixels=max_pixels)
        with decoding_slot():
            return CleanImage(_reencode(data, content_type), content_type)
    except ImageRejected:
        raise
    except Image.DecompressionBombError:
        raise ImageRejected(
            TOO_MANY_PIXELS.format(limit=max_dimension), "image_too_many_pixels"
        ) from None
    except Exception:  # any decoder failure on untrusted bytes means "not an image":
        # UnidentifiedImageError, OSError ("image file is truncated"), SyntaxError, ValueError,
        # EOFError, struct.error...: Pillow's plugins raise what their parsers meet.
        raise ImageRejected(NOT_AN_IMAGE, "not_an_image") from None
