"""Where avatar objects live: S3 through boto3 when ``S3_BUCKET`` is set, local files otherwise.

Both backends answer the same small interface. Keys are server-generated
(``avatars/<userId>/<random>``); clients only ever upload to the staging copy of a key
(``uploads/avatars/<userId>/<random>``), which the server checks and then copies to the key.
"""

from __future__ import annotations

import os
import secrets
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError
from django.conf import settings
from django.core import signing
from django.http import FileResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.urls import reverse

STAGING_PREFIX = "uploads/"
# Avatar keys as the server generates them: avatars/<userId>/<random>.
KEY_PATTERN = r"avatars/[0-9]+/[A-Za-z0-9_-]{16,64}"
# The object is never rewritten under its key: a new avatar gets a new random key.
IMMUTABLE = "public, max-age=31536000, immutable"
_CHUNK = 64 * 1024


def staging_key(key: str) -> str:
    return STAGING_PREFIX + key


class Readable(Protocol):
    def read(self, size: int = ..., /) -> bytes: ...


class TooLarge(Exception):
    """The upload passed the size limit; nothing of it was kept."""


@dataclass(frozen=True)
class UploadForm:
    """A browser upload: POST ``fields`` then the ``file`` field, as multipart/form-data, to
    ``url``; the object then lives at ``object_url`` (which confirms it)."""

    url: str
    fields: dict[str, str]
    object_url: str


class AvatarStorage(ABC):
    @abstractmethod
    def upload_form(
        self, *, key: str, content_type: str | None, expires_in: int, max_bytes: int
    ) -> UploadForm:
        """Where and how the client POSTs the object (a multipart form: the fields, then the
        file), valid for ``expires_in`` seconds, for at most ``max_bytes`` bytes. When
        ``content_type`` is given the form must carry exactly that Content-Type field."""

    @abstractmethod
    def read(self, key: str, *, limit: int) -> bytes | None:
        """At most ``limit`` leading bytes of the object, or None when there is none."""

    @abstractmethod
    def write(self, key: str, data: bytes, *, content_type: str) -> None: ...

    @abstractmethod
    def delete(self, key: str) -> None:
        """Remove the object; a missing object is not an error."""

    @abstractmethod
    def delete_older_than(self, prefix: str, cutoff: datetime) -> int:
        """Remove the objects under ``prefix`` last written before ``cutoff``; say how many."""

    @abstractmethod
    def serve(self, key: str, *, content_type: str) -> HttpResponseBase:
        """A response that shows the object to a browser (private buckets included). Raises
        FileNotFoundError when the backend can tell at once that the object is gone."""


def get_storage() -> AvatarStorage:
    return S3Storage() if settings.S3_BUCKET else LocalStorage()


# --- S3 -----------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _s3_client(endpoint_url: str | None, region: str, addressing_style: str) -> Any:
    """boto3 clients are thread-safe but slow to build: one per endpoint. Credentials come
    from boto3's standard chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, roles)."""
    config = Config(
        signature_version="s3v4",
        s3={"addressing_style": addressing_style},
        # Newer botocore adds CRC32 checksums to every PUT, presigned ones included; a browser
        # cannot send them and some S3-compatible servers refuse them.
        request_checksum_calculation="when_required",
        response_checksum_validation="when_required",
        retries={"max_attempts": 3, "mode": "standard"},
        connect_timeout=5,
        read_timeout=30,
    )
    return boto3.session.Session().client(
        "s3", endpoint_url=endpoint_url, region_name=region, config=config
    )


def _missing(error: ClientError) -> bool:
    return error.response.get("Error", {}).get("Code") in {"404", "NoSuchKey", "NotFound"}


class S3Storage(AvatarStorage):
    def __init__(self) -> None:
        self.bucket: str = settings.S3_BUCKET
        style = settings.S3_ADDRESSING_STYLE
        self.client = _s3_client(settings.S3_ENDPOINT_URL, settings.S3_REGION, style)
        # Addresses handed to browsers are signed for the host browsers reach (which differs
        # from the internal one in docker compose: http://minio:9000 vs http://localhost:9000).
        self.signer = _s3_client(settings.S3_PUBLIC_ENDPOINT_URL, settings.S3_REGION, style)

    def upload_form(
        self, *, key: str, content_type: str | None, expires_in: int, max_bytes: int
    ) -> UploadForm:
        # A presigned POST, not a presigned PUT: its policy's content-length-range makes the
        # bucket itself refuse a larger file (a presigned PUT cannot limit the size).
        fields: dict[str, str] = {}
        conditions: list[Any] = [["content-length-range", 1, max_bytes]]
        if content_type:
            fields["Content-Type"] = content_type
            conditions.append({"Content-Type": content_type})
        post = self.signer.generate_presigned_post(
            self.bucket, key, Fields=fields, Conditions=conditions, ExpiresIn=expires_in
        )
        url: str = post["url"]
        return UploadForm(
            url=url, fields=dict(post["fields"]), object_url=f"{url.rstrip('/')}/{quote(key)}"
        )

    def read(self, key: str, *, limit: int) -> bytes | None:
        try:
            response = self.client.get_object(
                Bucket=self.bucket, Key=key, Range=f"bytes=0-{limit - 1}"
            )
        except ClientError as error:
            if _missing(error):
                return None
            raise
        data: bytes = response["Body"].read(limit)
        return data

    def write(self, key: str, data: bytes, *, content_type: str) -> None:
        self.client.put_object(
            Bucket=self.bucket, Key=key, Body=data, ContentType=content_type, CacheControl=IMMUTABLE
        )

    def delete(self, key: str) -> None:
        self.client.delete_object(Bucket=self.bucket, Key=key)

    def ensure_bucket(self, *, cors_origins: list[str]) -> list[str]:
        """Create the bucket when missing and let browsers POST to it; say what was done."""
        done = []
        try:
            self.client.head_bucket(Bucket=self.bucket)
        except ClientError:
            options = {}
            if settings.S3_REGION != "us-east-1":
                options["CreateBucketConfiguration"] = {"LocationConstraint": settings.S3_REGION}
            self.client.create_bucket(Bucket=self.bucket, **options)
            done.append(f"created bucket {self.bucket}")
        rule = {
            "AllowedMethods": ["POST", "GET", "HEAD"],
            "AllowedOrigins": cors_origins,
            "AllowedHeaders": ["Content-Type"],
            "ExposeHeaders": ["ETag"],
            "MaxAgeSeconds": 3600,
        }
        try:
            self.client.put_bucket_cors(Bucket=self.bucket, CORSConfiguration={"CORSRules": [rule]})
            done.append(f"CORS allows {', '.join(cors_origins)}")
        except ClientError as error:
            # MinIO has no per-bucket CORS: it answers every origin (MINIO_API_CORS_ALLOW_ORIGIN).
            if error.response.get("Error", {}).get("Code") != "NotImplemented":
                raise
            done.append("CORS is the server's (no per-bucket CORS)")
        return done

    def delete_older_than(self, prefix: str, cutoff: datetime) -> int:
        stale = [
            {"Key": item["Key"]}
            for page in self.client.get_paginator("list_objects_v2").paginate(
                Bucket=self.bucket, Prefix=prefix
            )
            for item in page.get("Contents", [])
            if item["LastModified"] < cutoff
        ]
        for start in range(0, len(stale), 1000):
            self.client.delete_objects(
                Bucket=self.bucket, Delete={"Objects": stale[start : start + 1000], "Quiet": True}
            )
        return len(stale)

    def serve(self, key: str, *, content_type: str) -> HttpResponseBase:
        lifetime = settings.AVATAR_URL_LIFETIME
        url = self.signer.generate_presigned_url(
            "get_object",
            Params={
                "Bucket": self.bucket,
                "Key": key,
                # The type the server checked, whatever the uploader claimed.
                "ResponseContentType": content_type,
                "ResponseCacheControl": f"private, max-age={lifetime}",
            },
            ExpiresIn=lifetime,
        )
        response = HttpResponseRedirect(url)
        # Reuse the redirect (and so the browser's cached image) for half the URL's life.
        response["Cache-Control"] = f"private, max-age={lifetime // 2}"
        return response


# --- Local files --------------------------------------------------------------------------


class LocalStorage(AvatarStorage):
    """Files under MEDIA_ROOT. Upload forms point at this server and carry an expiring
    signature (``project.media.views.upload_post`` checks it and receives the file)."""

    signer = signing.TimestampSigner(salt="project.media.upload")

    def __init__(self) -> None:
        self.root = Path(settings.MEDIA_ROOT).resolve()

    def _path(self, key: str) -> Path:
        path = (self.root / key).resolve()
        if not path.is_relative_to(self.root):
            raise ValueError(f"Key outside the media root: {key!r}")
        return path

    def upload_form(
        self, *, key: str, content_type: str | None, expires_in: int, max_bytes: int
    ) -> UploadForm:
        # The same form as S3's: the key and a signed token (its own timestamp expires it, see
        # ``check_upload``) instead of a policy; the view stops reading at the size limit.
        token = self.signer.sign_object({"key": key, "type": content_type or ""})
        url = reverse("media-upload", kwargs={"key": key})
        fields = {"key": key, "token": token}
        if content_type:
            fields["Content-Type"] = content_type
        return UploadForm(url=url, fields=fields, object_url=url)

    def check_upload(self, *, key: str, token: str, max_age: int) -> str:
        """The content type the address was signed with ("" for none). Raises
        ``signing.SignatureExpired`` / ``signing.BadSignature``."""
        signed = self.signer.unsign_object(token, max_age=max_age)
        if not isinstance(signed, dict) or signed.get("key") != key:
            raise signing.BadSignature("The signature is for another key")
        return str(signed.get("type", ""))

    def receive(self, key: str, stream: Readable, *, limit: int) -> int:
        """Stream an uploaded file to the key's file, refusing past ``limit`` bytes."""
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{secrets.token_hex(4)}.part")
        written = 0
        try:
            with partial.open("wb") as out:
                while chunk := stream.read(_CHUNK):
                    written += len(chunk)
                    if written > limit:
                        raise TooLarge
                    out.write(chunk)
            os.replace(partial, path)
        finally:
            partial.unlink(missing_ok=True)
        return written

    def read(self, key: str, *, limit: int) -> bytes | None:
        try:
            with self._path(key).open("rb") as file:
                return file.read(limit)
        except FileNotFoundError:
            return None

    def write(self, key: str, data: bytes, *, content_type: str) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{secrets.token_hex(4)}.part")
        partial.write_bytes(data)
        os.replace(partial, path)

    def delete(self, key: str) -> None:
        self._path(key).unlink(missing_ok=True)

    def _files(self, prefix: str) -> Iterator[Path]:
        base = self._path(prefix)
        if base.is_dir():
            yield from (path for path in base.rglob("*") if path.is_file())

    def delete_older_than(self, prefix: str, cutoff: datetime) -> int:
        count = 0
        for path in self._files(prefix):
            if path.stat().st_mtime < cutoff.timestamp():
                path.unlink(missing_ok=True)
                count += 1
        return count

    def serve(self, key: str, *, content_type: str) -> HttpResponseBase:
        response = FileResponse(self._path(key).open("rb"), content_type=content_type)
        response["Cache-Control"] = IMMUTABLE
        return response
