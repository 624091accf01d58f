"""Avatar uploads: issue an address, receive a local upload, confirm it, purge what expired."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from project.accounts.models import User
from project.common.errors import ApplicationError, PermissionDenied, Throttled, ValidationFailed
from project.jobs.tasks import run_command
from project.media import selectors
from project.media.images import CleanImage, ImageRejected, clean_image, too_large_message
from project.media.models import AvatarUpload
from project.media.storage import (
    KEY_PATTERN,
    STAGING_PREFIX,
    AvatarStorage,
    LocalStorage,
    Readable,
    TooLarge,
    UploadForm,
    get_storage,
    staging_key,
)

NOT_AN_UPLOAD_ADDRESS = "This is not an upload address issued by this server"
UNKNOWN_ADDRESS = "This upload address is not valid"
NOT_YOURS = "This upload address was not issued to you"
ALREADY_USED = "This upload address has already been used"
EXPIRED = "This upload address has expired"
NO_FILE = "No file was uploaded to this address"
TOO_MANY_PENDING = "Too many uploads in progress. Try again in a few minutes."

# The key inside any object address: local (/media/uploads/<key>), S3 path style
# (/<bucket>/uploads/<key>) or virtual-host style (/uploads/<key>).
_UPLOAD_PATH = re.compile(rf"/{STAGING_PREFIX}({KEY_PATTERN})$")


class PayloadTooLarge(ApplicationError):
    status_code = 413
    code = "payload_too_large"


@dataclass(frozen=True)
class UploadAddress:
    form: UploadForm
    expires_at: datetime


def _confirm_deadline(upload: AvatarUpload) -> datetime:
    # An upload that started before the address expired may finish (and be confirmed) a
    # little later.
    return upload.expires_at + timedelta(seconds=settings.AVATAR_CONFIRM_GRACE)


def avatar_url_for(key: str) -> str:
    """The address browsers show an avatar from: served or redirected by this app."""
    return reverse("media-avatar", kwargs={"key": key})


def avatar_upload_create(*, user: User, content_type: str | None) -> UploadAddress:
    """Issue a single-use upload form for a key the server chooses, for at most
    AVATAR_MAX_BYTES: the storage itself refuses more (S3: the POST policy)."""
    uploads_purge(user=user)
    now = timezone.now()
    pending = AvatarUpload.objects.filter(user=user, used_at__isnull=True, expires_at__gt=now)
    if pending.count() >= settings.AVATAR_MAX_PENDING_UPLOADS:
        raise Throttled(TOO_MANY_PENDING, retry_after=settings.AVATAR_UPLOAD_LIFETIME)
    lifetime = settings.AVATAR_UPLOAD_LIFETIME
    upload = AvatarUpload.objects.create(
        user=user,
        key=f"avatars/{user.pk}/{secrets.token_urlsafe(24)}",
        expires_at=now + timedelta(seconds=lifetime),
    )
    form = get_storage().upload_form(
        key=staging_key(upload.key),
        content_type=content_type,
        expires_in=lifetime,
        max_bytes=settings.AVATAR_MAX_BYTES,
    )
    return UploadAddress(form=form, expires_at=upload.expires_at)


def avatar_upload_receive(
    *, key: str, token: str, content_type: str, file: Readable | None, too_large: bool = False
) -> None:
    """The local backend's form POST: the signed token is the credential (no session, no
    CSRF). ``content_type`` is the form's Content-Type field; ``too_large`` says the view
    stopped reading the request at the size limit."""
    storage = get_storage()
    if not isinstance(storage, LocalStorage):
        raise PermissionDenied(NOT_AN_UPLOAD_ADDRESS, code="upload_not_local")
    try:
        signed_type = storage.check_upload(
            key=key, token=token, max_age=settings.AVATAR_UPLOAD_LIFETIME
        )
    except signing.SignatureExpired:
        raise PermissionDenied(EXPIRED, code="upload_expired") from None
    except signing.BadSignature:
        raise PermissionDenied(UNKNOWN_ADDRESS, code="upload_signature_invalid") from None
    if signed_type and content_type != signed_type:
        raise PermissionDenied(
            f"This upload address expects Content-Type {signed_type}", code="upload_content_type"
        )
    if not selectors.upload_is_open(key=key.removeprefix(STAGING_PREFIX)):
        raise PermissionDenied(ALREADY_USED, code="upload_used")
    limit = settings.AVATAR_MAX_BYTES
    refused = PayloadTooLarge(too_large_message(limit), code="image_too_large")
    if too_large:
        raise refused
    if file is None:
        raise ValidationFailed(NO_FILE, code="upload_missing")
    try:
        storage.receive(key, file, limit=limit)
    except TooLarge:
        raise refused from None


def _key_from_object_url(object_url: str, *, field: str = "avatarURL") -> str:
    try:
        match = _UPLOAD_PATH.search(unquote(urlsplit(object_url.strip()).path))
    except ValueError:  # not a URL at all (e.g. an unbalanced "[" in the host)
        match = None
    if match is None:
        raise ValidationFailed.on_field(field, NOT_AN_UPLOAD_ADDRESS)
    return match.group(1)


def _claim(*, user: User, key: str, field: str = "avatarURL") -> AvatarUpload:
    """The upload for ``key``, marked used: of two concurrent confirmations one proceeds."""
    upload = AvatarUpload.objects.filter(key=key).first()
    if upload is None:
        raise ValidationFailed.on_field(field, UNKNOWN_ADDRESS)
    if upload.user_id != user.pk:
        raise PermissionDenied(NOT_YOURS, code="upload_not_yours")
    claimed = AvatarUpload.objects.filter(pk=upload.pk, used_at__isnull=True).update(
        used_at=timezone.now()
    )
    if not claimed:
        raise ValidationFailed.on_field(field, ALREADY_USED)
    return upload


def _checked_image(upload: AvatarUpload, data: bytes | None) -> CleanImage:
    if timezone.now() > _confirm_deadline(upload):
        raise ImageRejected(EXPIRED, "upload_expired")
    if data is None:
        raise ImageRejected(NO_FILE, "upload_missing")
    return clean_image(
        data,
        max_bytes=settings.AVATAR_MAX_BYTES,
        max_dimension=settings.AVATAR_MAX_DIMENSION,
        max_pixels=settings.AVATAR_MAX_PIXELS,
    )


def _delete_objects(storage: AvatarStorage, keys: list[str]) -> None:
    for key in keys:
        storage.delete(key)


def avatar_set(*, user: User, object_url: str) -> str:
    """Make the uploaded object at ``object_url`` the user's avatar, once it passes the checks.

    The upload is checked and re-encoded (``project.media.images``: no EXIF or other metadata
    survives) and the result written to the avatar key, so the upload form (still valid for a
    while on S3) cannot replace it. A refused object is deleted; the
    previous avatar object is deleted once the new one is committed. Returns the avatar URL."""
    upload = _claim(user=user, key=_key_from_object_url(object_url))
    storage = get_storage()
    staged = staging_key(upload.key)
    try:
        # One byte past the limit tells an oversized object without reading all of it.
        image = _checked_image(upload, storage.read(staged, limit=settings.AVATAR_MAX_BYTES + 1))
        content_type = image.content_type
        storage.write(upload.key, image.data, content_type=content_type)
    except ImageRejected as rejected:
        raise ValidationFailed(rejected.message, code=rejected.code) from None
    finally:
        storage.delete(staged)

    url = avatar_url_for(upload.key)
    with transaction.atomic():
        if not AvatarUpload.objects.filter(pk=upload.pk).update(content_type=content_type):
            # Purged meanwhile: past its deadline after all.
            storage.delete(upload.key)
            raise ValidationFailed(EXPIRED, code="upload_expired")
        # Locks the user row: one user's avatar changes commit one after the other, and each
        # deletes the avatars confirmed before it.
        User.objects.filter(pk=user.pk).update(avatar_url=url)
        replaced = (
            AvatarUpload.objects.filter(user=user).exclude(content_type="").exclude(pk=upload.pk)
        )
        # The replaced avatars stop being served at commit (a row without a user serves
        # nothing); the worker deletes their objects and rows (``orphans_purge``).
        if replaced.update(user=None):
            _orphans_purge_enqueue()
    user.avatar_url = url
    return url


def image_take(*, user: User, object_url: str, field: str) -> CleanImage:
    """An uploaded image for another app to keep under a key of its own (a player update's):
    the upload at ``object_url`` is claimed, checked and re-encoded exactly as an avatar (no
    EXIF or other metadata survives), and its staged object deleted. Its address row stays
    used and without a content type, so ``uploads_purge`` drops it after its deadline."""
    upload = _claim(user=user, key=_key_from_object_url(object_url, field=field), field=field)
    storage = get_storage()
    staged = staging_key(upload.key)
    try:
        return _checked_image(upload, storage.read(staged, limit=settings.AVATAR_MAX_BYTES + 1))
    except ImageRejected as rejected:
        raise ValidationFailed(rejected.message, code=rejected.code) from None
    finally:
        storage.delete(staged)


def stored_image_write(*, key: str, image: CleanImage) -> None:
    """Write a checked image under ``key`` (the caller's own prefix)."""
    get_storage().write(key, image.data, content_type=image.content_type)


def stored_image_delete(*, key: str) -> None:
    """Delete a stored image once the current transaction commits (storage is the outside
    world: a rolled-back write keeps it)."""
    transaction.on_commit(lambda: get_storage().delete(key))


def stored_image_delete_now(*, key: str) -> None:
    """Delete a stored image nothing refers to (a write that failed after storing it)."""
    get_storage().delete(key)


def uploads_purge(*, user: User | None = None, now: datetime | None = None) -> int:
    """Delete what can no longer become an avatar: addresses past their confirmation deadline
    (with whatever was uploaded to them) and, for a full purge, avatars of deleted accounts and
    stray staging objects. Returns how many objects or rows went."""
    now = now or timezone.now()
    storage = get_storage()
    grace = timedelta(seconds=settings.AVATAR_CONFIRM_GRACE)
    dead = AvatarUpload.objects.filter(content_type="", expires_at__lt=now - grace)
    if user is not None:
        dead = dead.filter(user=user)
    dead_keys = list(dead.values_list("key", flat=True))
    _delete_objects(storage, [staging_key(key) for key in dead_keys])
    AvatarUpload.objects.filter(key__in=dead_keys).delete()
    if user is not None:
        return len(dead_keys)

    orphans = orphans_purge()
    # Anything staged before the oldest address still open was never confirmed (or was PUT
    # again after its confirmation, which S3 cannot prevent).
    cutoff = now - grace - timedelta(seconds=settings.AVATAR_UPLOAD_LIFETIME)
    swept = storage.delete_older_than(STAGING_PREFIX, cutoff)
    return len(dead_keys) + orphans + swept


def user_avatars_delete(*, user_id: int) -> int:
    """An account is being deleted (in this transaction). Its avatar stops being served at
    commit (the rows' user becomes NULL and ``avatar_content_type`` ignores such rows); the
    objects, the avatar and any staged copy, are deleted by the worker right after the commit
    (``orphans_purge``, enqueued in this transaction), and their rows with them. Returns how
    many uploads there were."""
    count = AvatarUpload.objects.filter(user_id=user_id).count()
    if count:
        _orphans_purge_enqueue()
    return count


def _orphans_purge_enqueue() -> None:
    """The worker's ``purge_uploads --orphans``, enqueued in the current transaction: storage
    is the outside world, never called inside a request."""
    run_command.enqueue("purge_uploads", ["--orphans"])


def orphans_purge() -> int:
    """Delete the uploads no account holds any more (replaced avatars, deleted accounts'):
    their objects, staged copies and rows. Returns how many rows went."""
    storage = get_storage()
    keys = list(AvatarUpload.objects.filter(user__isnull=True).values_list("key", flat=True))
    _delete_objects(storage, [*keys, *(staging_key(key) for key in keys)])
    AvatarUpload.objects.filter(key__in=keys, user__isnull=True).delete()
    return len(keys)
