from __future__ import annotations

import io
import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.management import CommandError, call_command

from project.accounts.models import User
from project.media.models import AvatarUpload
from tests.helpers import ApiClient, Response, assert_error
from tests.media.conftest import S3Upload, Upload, image_bytes, png_bytes

MAX = 5_242_880
NOT_ISSUED = "This is not an upload address issued by this server"
NOT_AN_IMAGE = "The file is not a supported image (PNG, JPEG, GIF or WebP)"


def new_address(client: ApiClient, body: Any = None) -> str:
    response = client.post("/api/objects/upload", body)
    assert response.status_code == 200, response.content
    return response.json()["uploadURL"]


def confirm(client: ApiClient, upload_url: str, capture: Any) -> Response:
    with capture(execute=True):
        return client.put("/api/profile/avatar", {"avatarURL": upload_url})


def upload_avatar(client: ApiClient, backend: Upload, capture: Any, data: bytes) -> str:
    url = new_address(client)
    assert backend.put(url, data) == 200
    response = confirm(client, url, capture)
    assert response.status_code == 200, response.content
    return response.json()["avatarUrl"]


def key_of(avatar_url: str) -> str:
    return avatar_url.removeprefix("/media/")


@pytest.fixture
def capture(django_capture_on_commit_callbacks: Any) -> Any:
    return django_capture_on_commit_callbacks


# --- The whole flow -----------------------------------------------------------------------


def test_whole_flow(scout_api: ApiClient, scout: User, backend: Upload, capture: Any) -> None:
    data = png_bytes()
    response = scout_api.post("/api/objects/upload")
    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == {"uploadURL", "method", "headers", "expiresAt"}
    assert body["method"] == "PUT" and body["headers"] == {}
    url = body["uploadURL"]
    assert url.startswith("http")
    assert f"/uploads/avatars/{scout.pk}/" in urlsplit(url).path

    assert backend.put(url, data) == 200
    response = confirm(scout_api, url, capture)
    assert response.status_code == 200, response.content
    avatar_url = response.json()["avatarUrl"]
    assert avatar_url.startswith(f"/media/avatars/{scout.pk}/")
    assert avatar_url.rsplit("/", 1)[1] == urlsplit(url).path.rsplit("/", 1)[1]

    scout.refresh_from_db()
    assert scout.avatar_url == avatar_url
    assert scout_api.get("/api/auth/me").json()["avatarUrl"] == avatar_url
    assert backend.fetch(avatar_url) == (200, data, "image/png")
    # Only the checked copy is kept; the staged upload is gone.
    assert backend.keys() == [key_of(avatar_url)]
    # The address is single-use.
    assert_error(confirm(scout_api, url, capture), 400, "This upload address has already been used")


@pytest.mark.parametrize(
    ("fmt", "content_type"), [("JPEG", "image/jpeg"), ("GIF", "image/gif"), ("WEBP", "image/webp")]
)
def test_other_formats_are_served_with_their_checked_type(
    scout_api: ApiClient, local_backend: Upload, capture: Any, fmt: str, content_type: str
) -> None:
    data = image_bytes(fmt)
    url = new_address(scout_api)
    # The type the uploader claims does not matter: the content decides.
    assert local_backend.put(url, data, content_type="application/octet-stream") == 200
    avatar_url = confirm(scout_api, url, capture).json()["avatarUrl"]
    assert local_backend.fetch(avatar_url) == (200, data, content_type)


def test_signed_content_type(scout_api: ApiClient, backend: Upload, capture: Any) -> None:
    response = scout_api.post("/api/objects/upload", {"contentType": "image/png"})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["headers"] == {"Content-Type": "image/png"}
    url = body["uploadURL"]
    if backend.name == "s3":
        signed = parse_qs(urlsplit(url).query)["X-Amz-SignedHeaders"][0].split(";")
        assert "content-type" in signed
        assert parse_qs(urlsplit(url).query)["X-Amz-Expires"] == ["600"]
    else:
        assert backend.put(url, png_bytes(), content_type="image/jpeg") == 403
    assert backend.put(url, png_bytes(), content_type="image/png") == 200
    assert confirm(scout_api, url, capture).status_code == 200


def test_unsupported_content_type_is_refused(scout_api: ApiClient, backend: Upload) -> None:
    response = scout_api.post("/api/objects/upload", {"contentType": "text/html"})
    assert_error(response, 400, "Only PNG, JPEG, GIF or WebP images can be uploaded")
    assert not AvatarUpload.objects.exists()


def test_signed_out_gets_no_address(api: ApiClient, backend: Upload) -> None:
    assert_error(api.post("/api/objects/upload"), 401)
    assert_error(api.put("/api/profile/avatar", {"avatarURL": "x"}), 401)


def test_csrf_is_required(scout_api: ApiClient, backend: Upload) -> None:
    assert scout_api.post("/api/objects/upload", csrf=False).status_code == 403


# --- Refusals: nothing of a refused file is kept ------------------------------------------


def test_expired_address(
    scout_api: ApiClient, backend: Upload, capture: Any, settings: Any
) -> None:
    settings.AVATAR_UPLOAD_LIFETIME = 1
    settings.AVATAR_CONFIRM_GRACE = 0
    url = new_address(scout_api)
    time.sleep(2.2)
    status = backend.put(url, png_bytes())
    if backend.name == "local":
        assert status == 403
    # (A real S3 refuses the PUT too; the moto server does not check expiry. Either way:)
    assert_error(confirm(scout_api, url, capture), 400, "This upload address has expired")
    assert backend.keys() == []
    scout_api.user.refresh_from_db()  # type: ignore[union-attr]
    assert scout_api.user.avatar_url == ""  # type: ignore[union-attr]


def test_address_of_another_user(
    scout_api: ApiClient, other_api: ApiClient, backend: Upload, capture: Any
) -> None:
    url = new_address(scout_api)
    assert backend.put(url, png_bytes()) == 200
    assert_error(confirm(other_api, url, capture), 403, "This upload address was not issued to you")
    other_api.user.refresh_from_db()  # type: ignore[union-attr]
    assert other_api.user.avatar_url == ""  # type: ignore[union-attr]
    # The owner can still use it.
    assert confirm(scout_api, url, capture).status_code == 200


def test_text_file_renamed_png(scout_api: ApiClient, backend: Upload, capture: Any) -> None:
    url = new_address(scout_api)
    assert backend.put(url, b"just some text, saved as avatar.png\n") == 200
    assert_error(confirm(scout_api, url, capture), 400, NOT_AN_IMAGE)
    assert backend.keys() == []


def test_truncated_image_with_a_real_signature(
    scout_api: ApiClient, backend: Upload, capture: Any
) -> None:
    url = new_address(scout_api)
    assert backend.put(url, png_bytes()[:12]) == 200
    assert_error(confirm(scout_api, url, capture), 400, NOT_AN_IMAGE)
    assert backend.keys() == []


def test_image_one_byte_too_large(scout_api: ApiClient, backend: Upload, capture: Any) -> None:
    data = png_bytes()
    data += b"\0" * (MAX + 1 - len(data))
    assert len(data) == 5_242_881
    url = new_address(scout_api)
    if backend.name == "local":
        # The local PUT stops at the limit; the confirmation finds nothing.
        assert backend.put(url, data) == 413
        assert backend.keys() == []
        message = "No file was uploaded to this address"
    else:
        # A presigned S3 PUT cannot limit the size; the confirmation refuses and deletes.
        assert backend.put(url, data) == 200
        message = "The image must be at most 5 MB"
    assert_error(confirm(scout_api, url, capture), 400, message)
    assert backend.keys() == []


def test_local_put_answers_413_with_the_error_body(
    scout_api: ApiClient, local_backend: Upload
) -> None:
    url = new_address(scout_api)
    parts = urlsplit(url)
    response = local_backend.django_client.generic(
        "PUT", f"{parts.path}?{parts.query}", data=b"\0" * (MAX + 1), content_type="image/png"
    )
    assert_error(response, 413, "The image must be at most 5 MB")
    assert local_backend.keys() == []


def test_image_of_exactly_the_limit_is_accepted(
    scout_api: ApiClient, backend: Upload, capture: Any
) -> None:
    data = png_bytes()
    data += b"\0" * (MAX - len(data))
    avatar_url = upload_avatar(scout_api, backend, capture, data)
    assert backend.keys() == [key_of(avatar_url)]


def test_too_many_pixels(scout_api: ApiClient, backend: Upload, capture: Any) -> None:
    url = new_address(scout_api)
    assert backend.put(url, png_bytes(size=(4097, 1))) == 200
    assert_error(
        confirm(scout_api, url, capture), 400, "The image must be at most 4096x4096 pixels"
    )
    assert backend.keys() == []


def test_never_uploaded(scout_api: ApiClient, backend: Upload, capture: Any) -> None:
    url = new_address(scout_api)
    assert_error(confirm(scout_api, url, capture), 400, "No file was uploaded to this address")
    assert backend.keys() == []


@pytest.mark.parametrize(
    ("avatar_url", "message"),
    [
        ("https://evil.example/picture.png", NOT_ISSUED),
        ("/media/avatars/1/AAAAAAAAAAAAAAAAAAAAAAAA", NOT_ISSUED),
        ("http://[not-a-url/uploads/avatars/1/AAAAAAAAAAAAAAAAAAAAAAAA", NOT_ISSUED),
        ("/media/uploads/avatars/1/AAAAAAAAAAAAAAAAAAAAAAAA", "This upload address is not valid"),
    ],
)
def test_addresses_the_server_did_not_issue(
    scout_api: ApiClient, backend: Upload, capture: Any, avatar_url: str, message: str
) -> None:
    assert_error(confirm(scout_api, avatar_url, capture), 400, message)


def test_missing_avatar_url_field(scout_api: ApiClient, backend: Upload) -> None:
    body = assert_error(scout_api.put("/api/profile/avatar", {}), 400, "Required")
    assert body["fields"] == {"avatarURL": "Required"}


def test_local_put_needs_a_valid_signature(scout_api: ApiClient, local_backend: Upload) -> None:
    url = new_address(scout_api)
    tampered = url.replace("token=", "token=x")
    assert local_backend.put(tampered, png_bytes()) == 403
    unsigned = url.split("?", 1)[0]
    assert local_backend.put(unsigned, png_bytes()) == 403
    assert local_backend.keys() == []


def test_local_put_after_confirmation_is_refused(
    scout_api: ApiClient, local_backend: Upload, capture: Any
) -> None:
    url = new_address(scout_api)
    assert local_backend.put(url, png_bytes()) == 200
    avatar_url = confirm(scout_api, url, capture).json()["avatarUrl"]
    assert local_backend.put(url, b"<html>not an image</html>") == 403
    assert local_backend.keys() == [key_of(avatar_url)]


# --- Replacing and cleaning up ------------------------------------------------------------


def test_old_avatar_is_deleted_when_replaced(
    scout_api: ApiClient, backend: Upload, capture: Any
) -> None:
    first = upload_avatar(scout_api, backend, capture, png_bytes(color="red"))
    second_data = png_bytes(color="green")
    second = upload_avatar(scout_api, backend, capture, second_data)
    assert first != second
    assert backend.keys() == [key_of(second)]
    assert backend.fetch(first)[0] == 404
    assert backend.fetch(second) == (200, second_data, "image/png")
    assert AvatarUpload.objects.count() == 1


def test_refused_replacement_keeps_the_current_avatar(
    scout_api: ApiClient, backend: Upload, capture: Any
) -> None:
    data = png_bytes()
    current = upload_avatar(scout_api, backend, capture, data)
    url = new_address(scout_api)
    assert backend.put(url, b"GIF89a but not really") == 200
    assert_error(confirm(scout_api, url, capture), 400, NOT_AN_IMAGE)
    assert backend.keys() == [key_of(current)]
    assert backend.fetch(current) == (200, data, "image/png")


def test_purge_uploads_command(
    scout_api: ApiClient, backend: Upload, capture: Any, settings: Any
) -> None:
    kept = upload_avatar(scout_api, backend, capture, png_bytes())
    settings.AVATAR_UPLOAD_LIFETIME = 1
    settings.AVATAR_CONFIRM_GRACE = 0
    url = new_address(scout_api)
    assert backend.put(url, png_bytes()) == 200
    time.sleep(2.2)
    call_command("purge_uploads")
    assert backend.keys() == [key_of(kept)]
    assert list(AvatarUpload.objects.values_list("key", flat=True)) == [key_of(kept)]


def test_new_address_purges_the_users_expired_uploads(
    scout_api: ApiClient, backend: Upload, settings: Any
) -> None:
    settings.AVATAR_UPLOAD_LIFETIME = 1
    settings.AVATAR_CONFIRM_GRACE = 0
    url = new_address(scout_api)
    assert backend.put(url, png_bytes()) == 200
    time.sleep(2.2)
    settings.AVATAR_UPLOAD_LIFETIME = 600
    new_address(scout_api)
    assert backend.keys() == []
    assert AvatarUpload.objects.count() == 1


def test_avatar_of_a_deleted_account_is_purged(
    scout_api: ApiClient, scout: User, backend: Upload, capture: Any
) -> None:
    upload_avatar(scout_api, backend, capture, png_bytes())
    scout.delete()
    call_command("purge_uploads")
    assert backend.keys() == []
    assert not AvatarUpload.objects.exists()


def test_pending_addresses_are_limited(
    scout_api: ApiClient, backend: Upload, settings: Any
) -> None:
    settings.AVATAR_MAX_PENDING_UPLOADS = 2
    new_address(scout_api)
    new_address(scout_api)
    response = scout_api.post("/api/objects/upload")
    assert_error(response, 429, "Too many uploads in progress. Try again in a few minutes.")
    assert response["Retry-After"]


def test_unknown_avatar_address_is_404(backend: Upload, db: None) -> None:
    assert backend.fetch("/media/avatars/1/AAAAAAAAAAAAAAAAAAAAAAAA")[0] == 404


def test_setup_media_bucket_creates_the_bucket_with_cors(
    s3_backend: S3Upload, settings: Any
) -> None:
    settings.S3_BUCKET = f"{s3_backend.bucket}-new"
    out = io.StringIO()
    call_command("setup_media_bucket", "--origin", "http://127.0.0.1:8000", stdout=out)
    assert "created bucket" in out.getvalue()
    rules = s3_backend.s3.get_bucket_cors(Bucket=settings.S3_BUCKET)["CORSRules"]
    assert rules[0]["AllowedOrigins"] == ["http://127.0.0.1:8000"]
    assert "PUT" in rules[0]["AllowedMethods"]
    # Idempotent.
    call_command("setup_media_bucket", "--origin", "http://127.0.0.1:8000", stdout=io.StringIO())


def test_setup_media_bucket_needs_s3(local_backend: Upload) -> None:
    with pytest.raises(CommandError):
        call_command("setup_media_bucket")
