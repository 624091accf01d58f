from __future__ import annotations

import base64
import io
import json
import random
import threading
import time
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone
from PIL import Image, ImageFile

from project.accounts.models import User
from project.media.images import CleanImage, clean_image
from project.media.models import AvatarUpload
from tests.helpers import ApiClient, Response, assert_error, run_tasks
from tests.media.conftest import S3Upload, Upload, image_bytes, local_path, png_bytes

MAX = 5_242_880
NOT_ISSUED = "This is not an upload address issued by this server"
NOT_AN_IMAGE = "The file is not a supported image (PNG, JPEG, GIF or WebP)"
# Past an address's lifetime (600 s) and its confirmation grace (300 s).
PAST_THE_DEADLINE = timedelta(seconds=600 + 300 + 5)


def new_ticket(client: ApiClient, body: Any = None) -> dict[str, Any]:
    response = client.post("/api/objects/upload", body)
    assert response.status_code == 200, response.content
    ticket: dict[str, Any] = response.json()
    return ticket


def confirm(client: ApiClient, object_url: str, capture: Any) -> Response:
    with capture(execute=True):
        return client.put("/api/profile/avatar", {"avatarURL": object_url})


def upload_avatar(client: ApiClient, backend: Upload, capture: Any, data: bytes) -> str:
    ticket = new_ticket(client)
    assert backend.send(ticket, data) == 204
    response = confirm(client, ticket["objectURL"], capture)
    assert response.status_code == 200, response.content
    return str(response.json()["avatarUrl"])


def key_of(avatar_url: str) -> str:
    return avatar_url.removeprefix("/media/")


def pixels(data: bytes) -> tuple[str | None, tuple[int, int], bytes]:
    with Image.open(io.BytesIO(data)) as image:
        return image.format, image.size, image.convert("RGBA").tobytes()


def policy_of(ticket: dict[str, Any]) -> dict[str, Any]:
    policy: dict[str, Any] = json.loads(base64.b64decode(ticket["fields"]["policy"]))
    return policy


def expiration_of(ticket: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(policy_of(ticket)["expiration"].replace("Z", "+00:00"))


def noisy_jpeg(size: tuple[int, int] = (256, 256), **options: Any) -> bytes:
    """A JPEG whose scan data is long (noise compresses badly), so cutting it leaves a valid
    header with missing pixels."""
    rng = random.Random(7)
    image = Image.frombytes(
        "RGB", size, bytes(rng.randrange(256) for _ in range(3 * size[0] * size[1]))
    )
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=90, **options)
    return out.getvalue()


def gps_exif() -> Image.Exif:
    exif = Image.Exif()
    exif[0x010F] = "SpyCam Industries"  # Make
    exif[0x0112] = 6  # Orientation: rotate 90 degrees clockwise to show
    exif[0x8825] = {  # GPS IFD: 51°30'26.4"N 0°7'39.9"W
        1: "N",
        2: (51.0, 30.0, 26.4),
        3: "W",
        4: (0.0, 7.0, 39.9),
    }
    return exif


@pytest.fixture
def capture(django_capture_on_commit_callbacks: Any) -> Any:
    return django_capture_on_commit_callbacks


# --- The whole flow -----------------------------------------------------------------------


def test_whole_flow(scout_api: ApiClient, scout: User, backend: Upload, capture: Any) -> None:
    data = png_bytes()
    response = scout_api.post("/api/objects/upload")
    assert response.status_code == 200, response.content
    ticket = response.json()
    assert set(ticket) == {"uploadURL", "method", "fields", "objectURL", "expiresAt"}
    assert ticket["method"] == "POST"
    assert ticket["uploadURL"].startswith("http")
    object_url = ticket["objectURL"]
    assert object_url.startswith("http")
    assert f"/uploads/avatars/{scout.pk}/" in urlsplit(object_url).path
    assert urlsplit(object_url).path.endswith("/" + ticket["fields"]["key"])
    assert ticket["fields"]["key"].startswith(f"uploads/avatars/{scout.pk}/")
    assert "Content-Type" not in ticket["fields"]

    assert backend.send(ticket, data) == 204
    response = confirm(scout_api, object_url, capture)
    assert response.status_code == 200, response.content
    avatar_url = response.json()["avatarUrl"]
    assert avatar_url.startswith(f"/media/avatars/{scout.pk}/")
    assert avatar_url.rsplit("/", 1)[1] == urlsplit(object_url).path.rsplit("/", 1)[1]

    scout.refresh_from_db()
    assert scout.avatar_url == avatar_url
    assert scout_api.get("/api/auth/me").json()["avatarUrl"] == avatar_url
    status, stored, content_type = backend.fetch(avatar_url)
    assert (status, content_type) == (200, "image/png")
    assert pixels(stored) == pixels(data)
    # Only the checked copy is kept; the staged upload is gone.
    assert backend.keys() == [key_of(avatar_url)]
    # The address is single-use.
    assert_error(
        confirm(scout_api, object_url, capture), 400, "This upload address has already been used"
    )


@pytest.mark.parametrize(
    ("fmt", "content_type"), [("JPEG", "image/jpeg"), ("GIF", "image/gif"), ("WEBP", "image/webp")]
)
def test_other_formats_are_served_with_their_checked_type(
    scout_api: ApiClient, local_backend: Upload, capture: Any, fmt: str, content_type: str
) -> None:
    data = image_bytes(fmt)
    ticket = new_ticket(scout_api)
    # The type the uploader claims does not matter: the content decides.
    assert local_backend.send(ticket, data, content_type="application/octet-stream") == 204
    avatar_url = confirm(scout_api, ticket["objectURL"], capture).json()["avatarUrl"]
    status, stored, served_as = local_backend.fetch(avatar_url)
    assert (status, served_as) == (200, content_type)
    assert pixels(stored)[:2] == (fmt, (8, 8))


def test_signed_content_type(scout_api: ApiClient, backend: Upload, capture: Any) -> None:
    ticket = new_ticket(scout_api, {"contentType": "image/png"})
    assert ticket["fields"]["Content-Type"] == "image/png"
    if backend.name == "s3":
        # The bucket refuses a form whose Content-Type differs from the signed one.
        assert {"Content-Type": "image/png"} in policy_of(ticket)["conditions"]
    else:
        other = {**ticket["fields"], "Content-Type": "image/jpeg"}
        assert backend.send(ticket, png_bytes(), fields=other) == 403
    assert backend.send(ticket, png_bytes()) == 204
    assert confirm(scout_api, ticket["objectURL"], capture).status_code == 200


def test_unsupported_content_type_is_refused(scout_api: ApiClient, backend: Upload) -> None:
    response = scout_api.post("/api/objects/upload", {"contentType": "text/html"})
    assert_error(response, 400, "Only PNG, JPEG, GIF or WebP images can be uploaded")
    assert not AvatarUpload.objects.exists()


def test_signed_out_gets_no_address(api: ApiClient, backend: Upload) -> None:
    assert_error(api.post("/api/objects/upload"), 401)
    assert_error(api.put("/api/profile/avatar", {"avatarURL": "x"}), 401)


def test_csrf_is_required(scout_api: ApiClient, backend: Upload) -> None:
    assert scout_api.post("/api/objects/upload", csrf=False).status_code == 403


# --- What the storage itself enforces: the form's policy ----------------------------------


def test_s3_form_is_a_presigned_post_limited_to_5_mib(
    scout_api: ApiClient, scout: User, s3_backend: S3Upload
) -> None:
    ticket = new_ticket(scout_api)
    assert ticket["uploadURL"].rstrip("/").endswith(f"/{s3_backend.bucket}")
    policy = policy_of(ticket)
    conditions = policy["conditions"]
    # The bucket refuses a body outside this range (EntityTooLarge), before the server sees it.
    assert ["content-length-range", 1, MAX] in conditions
    assert {"bucket": s3_backend.bucket} in conditions
    assert {"key": ticket["fields"]["key"]} in conditions
    assert ticket["fields"]["key"].startswith(f"uploads/avatars/{scout.pk}/")
    # No other key and no other bucket can be written with it.
    assert not any(isinstance(c, list) and c[0] == "starts-with" for c in conditions)
    expiration = expiration_of(ticket)
    expires_at = datetime.fromisoformat(ticket["expiresAt"].replace("Z", "+00:00"))
    assert abs((expiration - expires_at).total_seconds()) < 2
    signed = {"policy", "x-amz-algorithm", "x-amz-credential", "x-amz-date", "x-amz-signature"}
    assert signed <= set(ticket["fields"])


def test_image_one_byte_too_large(scout_api: ApiClient, backend: Upload, capture: Any) -> None:
    data = png_bytes()
    data += b"\0" * (MAX + 1 - len(data))
    assert len(data) == 5_242_881
    ticket = new_ticket(scout_api)
    if backend.name == "local":
        # The local form stops reading at the limit; the confirmation finds nothing.
        assert backend.send(ticket, data) == 413
        assert backend.keys() == []
        message = "No file was uploaded to this address"
    else:
        # A real S3 (and MinIO) refuses this POST with 400 EntityTooLarge: the policy's
        # content-length-range (test above). moto 5 checks no POST policy (neither signature nor
        # conditions) and stores it; then the confirmation is what refuses it, and deletes it.
        assert backend.send(ticket, data) == 204
        message = "The image must be at most 5 MB"
    assert_error(confirm(scout_api, ticket["objectURL"], capture), 400, message)
    assert backend.keys() == []


def test_local_form_answers_413_with_the_error_body(
    scout_api: ApiClient, local_backend: Upload
) -> None:
    ticket = new_ticket(scout_api)
    path = local_path(ticket["uploadURL"])
    anonymous = Client()
    # Refused from its Content-Length, before the body is parsed.
    huge = SimpleUploadedFile("avatar.png", b"\0" * (MAX + 64 * 1024), content_type="image/png")
    response = anonymous.post(path, {**ticket["fields"], "file": huge})
    assert_error(response, 413, "The image must be at most 5 MB")
    # Within the form's overhead allowance, but one byte over: the parser stops at the limit.
    over = SimpleUploadedFile("avatar.png", b"\0" * (MAX + 1), content_type="image/png")
    response = anonymous.post(path, {**ticket["fields"], "file": over})
    assert_error(response, 413, "The image must be at most 5 MB")
    assert local_backend.keys() == []


def test_local_form_without_a_file(scout_api: ApiClient, local_backend: Upload) -> None:
    ticket = new_ticket(scout_api)
    response = Client().post(local_path(ticket["uploadURL"]), ticket["fields"])
    assert_error(response, 400, "No file was uploaded to this address")
    assert local_backend.keys() == []


def test_image_of_exactly_the_limit_is_accepted(
    scout_api: ApiClient, backend: Upload, capture: Any
) -> None:
    data = png_bytes()
    data += b"\0" * (MAX - len(data))
    avatar_url = upload_avatar(scout_api, backend, capture, data)
    assert backend.keys() == [key_of(avatar_url)]
    # What is kept is the image, not the padding after it.
    status, stored, _ = backend.fetch(avatar_url)
    assert status == 200 and len(stored) < 1000
    assert pixels(stored) == pixels(png_bytes())


# --- What is kept: the pixels, none of the metadata ---------------------------------------


def test_gps_exif_never_reaches_the_avatar(
    scout_api: ApiClient, backend: Upload, capture: Any
) -> None:
    out = io.BytesIO()
    Image.new("RGB", (40, 20), "orange").save(
        out,
        format="JPEG",
        exif=gps_exif(),
        comment=b"taken at 12 Home Street",
        xmp=b"<x:xmpmeta><Home>12 Home Street</Home></x:xmpmeta>",
    )
    data = out.getvalue()
    with Image.open(io.BytesIO(data)) as uploaded:  # the upload does carry them
        assert uploaded.getexif().get_ifd(0x8825)[2] == (51.0, 30.0, 26.4)
    assert b"SpyCam" in data and b"Home Street" in data

    avatar_url = upload_avatar(scout_api, backend, capture, data)
    status, stored, content_type = backend.fetch(avatar_url)
    assert (status, content_type) == (200, "image/jpeg")
    with Image.open(io.BytesIO(stored)) as avatar:
        assert avatar.format == "JPEG"
        assert "exif" not in avatar.info and "xmp" not in avatar.info
        assert "comment" not in avatar.info
        assert dict(avatar.getexif()) == {}
        # The orientation the EXIF block asked for is applied to the pixels instead.
        assert avatar.size == (20, 40)
    assert b"Exif" not in stored and b"SpyCam" not in stored and b"Home Street" not in stored


@pytest.mark.parametrize("fmt", ["PNG", "WEBP"])
def test_metadata_of_other_formats_is_dropped(
    scout_api: ApiClient, local_backend: Upload, capture: Any, fmt: str
) -> None:
    out = io.BytesIO()
    Image.new("RGBA", (8, 8), (0, 128, 0, 100)).save(out, format=fmt, exif=gps_exif())
    data = out.getvalue()
    assert b"SpyCam" in data
    avatar_url = upload_avatar(scout_api, local_backend, capture, data)
    _, stored, _ = local_backend.fetch(avatar_url)
    assert b"SpyCam" not in stored and b"Exif" not in stored
    with Image.open(io.BytesIO(stored)) as avatar:
        assert avatar.format == fmt and avatar.mode == "RGBA"
        assert dict(avatar.getexif()) == {}


def test_animated_gif_keeps_its_first_frame(
    scout_api: ApiClient, local_backend: Upload, capture: Any
) -> None:
    frames = [Image.new("RGB", (8, 8), color) for color in ("red", "green", "blue")]
    out = io.BytesIO()
    frames[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=100,
        loop=0,
        comment=b"made at 12 Home Street",
    )
    avatar_url = upload_avatar(scout_api, local_backend, capture, out.getvalue())
    _, stored, content_type = local_backend.fetch(avatar_url)
    assert content_type == "image/gif"
    assert b"Home Street" not in stored
    with Image.open(io.BytesIO(stored)) as avatar:
        assert getattr(avatar, "n_frames", 1) == 1
        assert avatar.convert("RGB").getpixel((4, 4)) == (255, 0, 0)


# --- Refusals: nothing of a refused file is kept ------------------------------------------


def test_expired_address(scout_api: ApiClient, backend: Upload, capture: Any) -> None:
    ticket = new_ticket(scout_api)
    with time_machine.travel(timezone.now() + PAST_THE_DEADLINE):
        status = backend.send(ticket, png_bytes())
        if backend.name == "local":
            assert status == 403
        else:
            # A real S3 refuses it too (the policy's expiration); moto checks no policy.
            assert expiration_of(ticket) < timezone.now()
        assert_error(
            confirm(scout_api, ticket["objectURL"], capture), 400, "This upload address has expired"
        )
    assert backend.keys() == []
    scout_api.user.refresh_from_db()  # type: ignore[union-attr]
    assert scout_api.user.avatar_url == ""  # type: ignore[union-attr]


def test_address_of_another_user(
    scout_api: ApiClient, other_api: ApiClient, backend: Upload, capture: Any
) -> None:
    ticket = new_ticket(scout_api)
    assert backend.send(ticket, png_bytes()) == 204
    assert_error(
        confirm(other_api, ticket["objectURL"], capture),
        403,
        "This upload address was not issued to you",
    )
    other_api.user.refresh_from_db()  # type: ignore[union-attr]
    assert other_api.user.avatar_url == ""  # type: ignore[union-attr]
    # The owner can still use it.
    assert confirm(scout_api, ticket["objectURL"], capture).status_code == 200


def test_text_file_renamed_png(scout_api: ApiClient, backend: Upload, capture: Any) -> None:
    ticket = new_ticket(scout_api)
    assert backend.send(ticket, b"just some text, saved as avatar.png\n") == 204
    assert_error(confirm(scout_api, ticket["objectURL"], capture), 400, NOT_AN_IMAGE)
    assert backend.keys() == []


def test_truncated_image_with_a_real_signature(
    scout_api: ApiClient, backend: Upload, capture: Any
) -> None:
    ticket = new_ticket(scout_api)
    assert backend.send(ticket, png_bytes()[:12]) == 204
    assert_error(confirm(scout_api, ticket["objectURL"], capture), 400, NOT_AN_IMAGE)
    assert backend.keys() == []


def test_image_cut_short_after_a_valid_header(
    scout_api: ApiClient, backend: Upload, capture: Any
) -> None:
    data = noisy_jpeg()
    cut = data[: len(data) * 2 // 3]
    with Image.open(io.BytesIO(cut)) as header_only:  # the header alone looks fine
        assert header_only.format == "JPEG" and header_only.size == (256, 256)
    ticket = new_ticket(scout_api)
    assert backend.send(ticket, cut) == 204
    assert_error(confirm(scout_api, ticket["objectURL"], capture), 400, NOT_AN_IMAGE)
    assert backend.keys() == []


def test_corrupt_image_is_refused(scout_api: ApiClient, backend: Upload, capture: Any) -> None:
    data = bytearray(png_bytes(size=(32, 32)))
    data[data.index(b"IDAT") + 8] ^= 0xFF  # a flipped byte in the pixel data: its CRC fails
    ticket = new_ticket(scout_api)
    assert backend.send(ticket, bytes(data)) == 204
    assert_error(confirm(scout_api, ticket["objectURL"], capture), 400, NOT_AN_IMAGE)
    assert backend.keys() == []


def test_too_many_pixels(scout_api: ApiClient, backend: Upload, capture: Any) -> None:
    ticket = new_ticket(scout_api)
    assert backend.send(ticket, png_bytes(size=(4097, 1))) == 204
    assert_error(
        confirm(scout_api, ticket["objectURL"], capture),
        400,
        "The image must be at most 4096x4096 pixels",
    )
    assert backend.keys() == []


def test_more_pixels_than_the_limit_within_the_sides_is_refused(
    scout_api: ApiClient, backend: Upload, capture: Any
) -> None:
    """4096x4000 is within the 4096 a side but over 16 megapixels: refused from its header,
    before a pixel is decoded."""
    out = io.BytesIO()
    Image.new("L", (4096, 4000)).save(out, format="PNG")
    ticket = new_ticket(scout_api)
    assert backend.send(ticket, out.getvalue()) == 204
    body = assert_error(
        confirm(scout_api, ticket["objectURL"], capture),
        400,
        "The image must be at most 16 megapixels",
    )
    assert body["code"] == "image_too_many_pixels"
    assert backend.keys() == []


def test_decoding_at_once_is_bounded_per_process(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.AVATAR_DECODE_CONCURRENCY = 2
    running = 0
    most = 0
    lock = threading.Lock()
    real = ImageFile.ImageFile.load

    def counted(self: ImageFile.ImageFile) -> Any:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        try:
            time.sleep(0.05)  # long enough for the other threads to pile up
            return real(self)
        finally:
            with lock:
                running -= 1

    monkeypatch.setattr(ImageFile.ImageFile, "load", counted)
    data = png_bytes(size=(64, 64))
    cleaned: list[CleanImage] = []

    def one() -> None:
        cleaned.append(clean_image(data, max_bytes=MAX, max_dimension=4096, max_pixels=16_000_000))

    threads = [threading.Thread(target=one) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(cleaned) == 8
    assert most == 2


def test_never_uploaded(scout_api: ApiClient, backend: Upload, capture: Any) -> None:
    ticket = new_ticket(scout_api)
    assert_error(
        confirm(scout_api, ticket["objectURL"], capture),
        400,
        "No file was uploaded to this address",
    )
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


def test_local_form_needs_a_valid_signature(scout_api: ApiClient, local_backend: Upload) -> None:
    ticket = new_ticket(scout_api)
    fields = ticket["fields"]
    tampered = {**fields, "token": "x" + fields["token"]}
    assert local_backend.send(ticket, png_bytes(), fields=tampered) == 403
    unsigned = {key: value for key, value in fields.items() if key != "token"}
    assert local_backend.send(ticket, png_bytes(), fields=unsigned) == 403
    # A token is for one key only.
    other = new_ticket(scout_api)
    borrowed = {**fields, "token": other["fields"]["token"]}
    assert local_backend.send(ticket, png_bytes(), fields=borrowed) == 403
    assert local_backend.keys() == []


def test_local_upload_address_takes_no_put(scout_api: ApiClient, local_backend: Upload) -> None:
    ticket = new_ticket(scout_api)
    path = f"{local_path(ticket['uploadURL'])}?token={ticket['fields']['token']}"
    response = Client().generic("PUT", path, data=png_bytes(), content_type="image/png")
    assert response.status_code == 405
    assert local_backend.keys() == []


def test_local_form_after_confirmation_is_refused(
    scout_api: ApiClient, local_backend: Upload, capture: Any
) -> None:
    ticket = new_ticket(scout_api)
    assert local_backend.send(ticket, png_bytes()) == 204
    avatar_url = confirm(scout_api, ticket["objectURL"], capture).json()["avatarUrl"]
    assert local_backend.send(ticket, b"<html>not an image</html>") == 403
    assert local_backend.keys() == [key_of(avatar_url)]


# --- Replacing and cleaning up ------------------------------------------------------------


def test_old_avatar_is_deleted_when_replaced(
    scout_api: ApiClient, backend: Upload, capture: Any
) -> None:
    first = upload_avatar(scout_api, backend, capture, png_bytes(color="red"))
    second_data = png_bytes(color="green")
    second = upload_avatar(scout_api, backend, capture, second_data)
    assert first != second
    # The first stops being served at once; the worker deletes its object and row.
    assert scout_api.get("/api/auth/me").json()["avatarUrl"] == second
    assert run_tasks() == 1
    assert backend.keys() == [key_of(second)]
    assert backend.fetch(first)[0] == 404
    status, stored, content_type = backend.fetch(second)
    assert (status, content_type) == (200, "image/png")
    assert pixels(stored) == pixels(second_data)
    assert AvatarUpload.objects.count() == 1


def test_refused_replacement_keeps_the_current_avatar(
    scout_api: ApiClient, backend: Upload, capture: Any
) -> None:
    data = png_bytes()
    current = upload_avatar(scout_api, backend, capture, data)
    ticket = new_ticket(scout_api)
    assert backend.send(ticket, b"GIF89a but not really") == 204
    assert_error(confirm(scout_api, ticket["objectURL"], capture), 400, NOT_AN_IMAGE)
    assert backend.keys() == [key_of(current)]
    status, stored, _ = backend.fetch(current)
    assert status == 200 and pixels(stored) == pixels(data)


def test_purge_uploads_command(scout_api: ApiClient, backend: Upload, capture: Any) -> None:
    kept = upload_avatar(scout_api, backend, capture, png_bytes())
    ticket = new_ticket(scout_api)
    assert backend.send(ticket, png_bytes()) == 204
    with time_machine.travel(timezone.now() + PAST_THE_DEADLINE + PAST_THE_DEADLINE):
        call_command("purge_uploads")
    assert backend.keys() == [key_of(kept)]
    assert list(AvatarUpload.objects.values_list("key", flat=True)) == [key_of(kept)]


def test_new_address_purges_the_users_expired_uploads(
    scout_api: ApiClient, backend: Upload
) -> None:
    ticket = new_ticket(scout_api)
    assert backend.send(ticket, png_bytes()) == 204
    with time_machine.travel(timezone.now() + PAST_THE_DEADLINE):
        new_ticket(scout_api)
    assert backend.keys() == []
    assert AvatarUpload.objects.count() == 1


def test_avatar_of_a_deleted_account_is_purged(
    scout_api: ApiClient, scout: User, backend: Upload, capture: Any
) -> None:
    upload_avatar(scout_api, backend, capture, png_bytes())
    scout.delete()
    # The worker's task, enqueued with the deletion, removes the object and its row.
    assert run_tasks() == 1
    assert backend.keys() == []
    assert not AvatarUpload.objects.exists()


def test_pending_addresses_are_limited(
    scout_api: ApiClient, backend: Upload, settings: Any
) -> None:
    settings.AVATAR_MAX_PENDING_UPLOADS = 2
    new_ticket(scout_api)
    new_ticket(scout_api)
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
    assert "POST" in rules[0]["AllowedMethods"]
    # Idempotent.
    call_command("setup_media_bucket", "--origin", "http://127.0.0.1:8000", stdout=io.StringIO())


def test_setup_media_bucket_needs_s3(local_backend: Upload) -> None:
    with pytest.raises(CommandError):
        call_command("setup_media_bucket")
