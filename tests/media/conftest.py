"""Avatar storage backends for tests: S3 through a real moto server on loopback, and local
files under a temporary MEDIA_ROOT. ``backend`` runs a test once against each."""

from __future__ import annotations

import io
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import boto3
import httpx
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from moto.server import ThreadedMotoServer
from PIL import Image

from tests.helpers import Response

REGION = "us-east-1"


def png_bytes(size: tuple[int, int] = (8, 8), color: str = "red") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, format="PNG")
    return out.getvalue()


def image_bytes(fmt: str, size: tuple[int, int] = (8, 8)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, "blue").save(out, format=fmt)
    return out.getvalue()


@dataclass
class Upload:
    """What a browser does with an object store: POST the upload form it was given, list what
    is kept, load an avatar from its address."""

    name: str
    django_client: Client

    def send(
        self,
        ticket: dict[str, Any],
        data: bytes,
        content_type: str = "image/png",
        fields: dict[str, str] | None = None,
    ) -> int:
        """POST the ticket's form (``fields`` replacing its own when given), the file last;
        answer the status."""
        raise NotImplementedError

    def keys(self) -> list[str]:
        raise NotImplementedError

    def fetch(self, avatar_url: str) -> tuple[int, bytes, str]:
        """Status, bytes and content type a browser gets for an avatar address."""
        response = self.django_client.get(avatar_url)
        if response.status_code != 200:
            return response.status_code, b"", ""
        return 200, _content(response), response["Content-Type"]


def _content(response: Response) -> bytes:
    if getattr(response, "streaming", False):
        # Consuming it closes it (the test client's wrapper keeps the DB connection open).
        return b"".join(response.streaming_content)  # type: ignore[attr-defined]
    return response.content


@dataclass
class S3Upload(Upload):
    s3: Any = None
    bucket: str = ""

    def send(
        self,
        ticket: dict[str, Any],
        data: bytes,
        content_type: str = "image/png",
        fields: dict[str, str] | None = None,
    ) -> int:
        form = ticket["fields"] if fields is None else fields
        # httpx writes the data fields first, then the files: S3 wants the file last.
        response = httpx.post(
            ticket["uploadURL"], data=form, files={"file": ("avatar", data, content_type)}
        )
        return response.status_code

    def keys(self) -> list[str]:
        page = self.s3.list_objects_v2(Bucket=self.bucket)
        return sorted(item["Key"] for item in page.get("Contents", []))

    def fetch(self, avatar_url: str) -> tuple[int, bytes, str]:
        response = self.django_client.get(avatar_url)
        if response.status_code != 302:
            return response.status_code, b"", ""
        assert "max-age" in response["Cache-Control"]
        target = httpx.get(response["Location"])
        return target.status_code, target.content, target.headers.get("content-type", "")


@dataclass
class LocalUpload(Upload):
    root: Path = Path()

    def send(
        self,
        ticket: dict[str, Any],
        data: bytes,
        content_type: str = "image/png",
        fields: dict[str, str] | None = None,
    ) -> int:
        form: dict[str, Any] = dict(ticket["fields"] if fields is None else fields)
        form["file"] = SimpleUploadedFile("avatar", data, content_type=content_type)
        # No session, no CSRF token: the signature is the credential.
        anonymous = Client(enforce_csrf_checks=True)
        return anonymous.post(local_path(ticket["uploadURL"]), form).status_code

    def keys(self) -> list[str]:
        files = (path for path in self.root.rglob("*") if path.is_file())
        return sorted(path.relative_to(self.root).as_posix() for path in files)


def local_path(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.path}?{parts.query}" if parts.query else parts.path


@pytest.fixture(scope="session")
def moto_endpoint() -> Iterator[str]:
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture
def s3_backend(moto_endpoint: str, settings: Any, monkeypatch: pytest.MonkeyPatch) -> S3Upload:
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_CONFIG_FILE", "AWS_ENDPOINT_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
    bucket = f"avatars-{uuid.uuid4().hex[:12]}"
    settings.S3_BUCKET = bucket
    settings.S3_ENDPOINT_URL = moto_endpoint
    settings.S3_PUBLIC_ENDPOINT_URL = moto_endpoint
    settings.S3_REGION = REGION
    settings.S3_ADDRESSING_STYLE = "path"
    s3 = boto3.client(
        "s3",
        endpoint_url=moto_endpoint,
        region_name=REGION,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    s3.create_bucket(Bucket=bucket)
    return S3Upload(name="s3", django_client=Client(), s3=s3, bucket=bucket)


@pytest.fixture
def local_backend(tmp_path: Path, settings: Any) -> LocalUpload:
    settings.S3_BUCKET = ""
    settings.MEDIA_ROOT = tmp_path / "media"
    return LocalUpload(name="local", django_client=Client(), root=tmp_path / "media")


@pytest.fixture(params=["s3", "local"])
def backend(request: pytest.FixtureRequest) -> Upload:
    upload: Upload = request.getfixturevalue(f"{request.param}_backend")
    return upload
