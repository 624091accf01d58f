"""Media: avatars in local files or an S3-compatible bucket (project/media)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from project.settings.base import BASE_DIR
from project.settings.env import external, setting

MEDIA_ROOT = Path(
    setting(
        "MEDIA_ROOT",
        str(BASE_DIR / "media"),
        "Where local avatar files go (without `S3_BUCKET`).",
        shown="`media/` in the checkout",
    )
)
S3_BUCKET = setting("S3_BUCKET", "", "Avatars in this S3-compatible bucket instead of local files.")
S3_ENDPOINT_URL = (
    setting("S3_ENDPOINT_URL", "", "The S3 endpoint (MinIO, another provider); unset: AWS.") or None
)
S3_REGION = setting("S3_REGION", "us-east-1", "The bucket's region.")
S3_PUBLIC_ENDPOINT_URL = (
    setting(
        "S3_PUBLIC_ENDPOINT_URL",
        "",
        "The S3 endpoint as browsers reach it (uploads and avatar loads; allowed by the CSP).",
        shown="`S3_ENDPOINT_URL`",
    )
    or S3_ENDPOINT_URL
)
S3_ADDRESSING_STYLE = setting(
    "S3_ADDRESSING_STYLE",
    "path" if S3_ENDPOINT_URL else "auto",
    "boto3's addressing style (`path`, `virtual` or `auto`).",
    shown="`path` with `S3_ENDPOINT_URL`, else `auto`",
)
external("AWS_ACCESS_KEY_ID", "", "The bucket's access key (read by boto3).", reader="boto3")
external("AWS_SECRET_ACCESS_KEY", "", "The bucket's secret key (read by boto3).", reader="boto3")
AVATAR_MAX_BYTES = 5_242_880
AVATAR_MAX_DIMENSION = 4096
AVATAR_MAX_PIXELS = setting(
    "AVATAR_MAX_PIXELS",
    16000000,
    "Pixels (width x height) an avatar may have, checked from its header before decoding "
    "(a decoded frame takes 4 bytes a pixel).",
)
AVATAR_DECODE_CONCURRENCY = setting(
    "AVATAR_DECODE_CONCURRENCY",
    2,
    "Avatars decoded at once per process (project/media/images.py); the others wait their turn.",
)
AVATAR_UPLOAD_LIFETIME = 600  # seconds an upload form (S3 presigned POST) is accepted
AVATAR_CONFIRM_GRACE = 300  # seconds after that to confirm an upload that started in time
AVATAR_URL_LIFETIME = 3600  # presigned GET behind /media/avatars/... (S3)
AVATAR_MAX_PENDING_UPLOADS = 5
# Browsers POST to and load avatars from the S3 endpoint: allow a plain-http one (MinIO).
_s3_public = urlsplit(S3_PUBLIC_ENDPOINT_URL or "")
_S3_ORIGIN = (
    f" {_s3_public.scheme}://{_s3_public.netloc}" if S3_BUCKET and _s3_public.netloc else ""
)
