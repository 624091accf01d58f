"""Two-factor sign-in: an authenticator app (TOTP, RFC 6238: six digits, 30-second steps) with
ten single-use recovery codes. Enrolment shows a QR code and takes effect with the first code
the app shows; from then on a sign-in asks for a code after the password.
"""

from __future__ import annotations

import hashlib
import io
import secrets
from dataclasses import dataclass

import pyotp
import qrcode
import qrcode.image.svg
from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from project.accounts.models import RecoveryCode, TwoFactorDevice, User, UserSession, UserSettings
from project.accounts.throttle import forget_login_attempts, register_login_attempt
from project.common.errors import Conflict, PermissionDenied, ValidationFailed
from project.common.second_factor import second_factor_passed
from realtime.publish import close_user_sockets

RECOVERY_CODES = 10
# One step either side of now: a phone's clock a little off, or a code typed as it changed.
VALID_WINDOW = 1

ALREADY_ON = "Two-factor sign-in is already on"
NOT_STARTED = "Start the setup again: no authenticator is waiting for its first code"
NOT_ON = "Two-factor sign-in is not on"
INVALID_CODE = "That code is not valid. Enter the current code from your authenticator app."
REQUIRED_FOR_ADMINS = "Admins cannot turn off two-factor sign-in"
PASSWORD_INCORRECT = "Current password is incorrect"


@dataclass(frozen=True)
class Enrolment:
    secret: str
    otpauth_uri: str
    qr_svg: str


def _digest(code: str) -> str:
    normalized = "".join(ch for ch in code.lower() if ch.isalnum())
    return hashlib.sha256(normalized.encode()).hexdigest()


def _new_recovery_code() -> str:
    # 10 characters of a 32-letter alphabet without look-alikes: 50 bits, shown as xxxxx-xxxxx.
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    raw = "".join(secrets.choice(alphabet) for _ in range(10))
    return f"{raw[:5]}-{raw[5:]}"


def _qr_svg(uri: str) -> str:
    image = qrcode.make(uri, image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    buffer = io.BytesIO()
    image.save(buffer)
    return buffer.getvalue().decode()


def two_factor_enabled(user: User) -> bool:
    return TwoFactorDevice.objects.filter(user=user, confirmed_at__isnull=False).exists()


@transaction.atomic
def two_factor_setup(*, user: User) -> Enrolment:
    """Start enrolment: a new secret, waiting for its first code (a setup started before and
    not finished is replaced)."""
    if two_factor_enabled(user):
        raise Conflict(ALREADY_ON, code="two_factor_on")
    secret = pyotp.random_base32()
    TwoFactorDevice.objects.update_or_create(
        user=user, defaults={"secret": secret, "confirmed_at": None, "last_step": 0}
    )
    uri = pyotp.TOTP(secret).provisioning_uri(
        name=user.username, issuer_name=settings.TWO_FACTOR_ISSUER
    )
    return Enrolment(secret=secret, otpauth_uri=uri, qr_svg=_qr_svg(uri))


def _totp_step(device: TwoFactorDevice, code: str) -> int | None:
    """The time step ``code`` belongs to, if it is valid now and newer than the last used."""
    digits = "".join(ch for ch in code if not ch.isspace())
    if len(digits) != 6 or not digits.isdigit():
        return None
    totp = pyotp.TOTP(device.secret)
    now = timezone.now()
    current = totp.timecode(now)
    for step in range(current - VALID_WINDOW, current + VALID_WINDOW + 1):
        if step > device.last_step and secrets.compare_digest(totp.generate_otp(step), digits):
            return step
    return None


@transaction.atomic
def two_factor_confirm(*, request: HttpRequest, user: User, code: str) -> list[str]:
    """Finish enrolment with the first code the app shows; answer the ten recovery codes,
    shown this once. The session that enrolled counts as having passed the second factor;
    every other session of the account ends (a password alone may have opened one), and the
    account's sockets close so that they come back with the rights of their session."""
    device = TwoFactorDevice.objects.select_for_update().filter(user=user).first()
    if device is None or device.confirmed_at is not None:
        raise Conflict(ALREADY_ON if device else NOT_STARTED, code="two_factor_setup")
    step = _totp_step(device, code)
    if step is None:
        raise ValidationFailed(INVALID_CODE, code="invalid_code", fields={"code": INVALID_CODE})
    device.confirmed_at = timezone.now()
    device.last_step = step
    device.save(update_fields=["confirmed_at", "last_step"])
    codes = _recovery_codes_replace(user)
    UserSettings.objects.update_or_create(user=user, defaults={"two_factor_enabled": True})
    second_factor_passed(request.session, user.pk)
    UserSession.objects.filter(user_id=user.pk).exclude(
        session_key=request.session.session_key
    ).delete()
    close_user_sockets(user.pk, reason="two_factor_enabled")
    return codes


def _recovery_codes_replace(user: User) -> list[str]:
    RecoveryCode.objects.filter(user=user).delete()
    codes = [_new_recovery_code() for _ in range(RECOVERY_CODES)]
    RecoveryCode.objects.bulk_create(RecoveryCode(user=user, digest=_digest(c)) for c in codes)
    return codes


def second_factor_check(*, user: User, code: str) -> bool:
    """Whether ``code`` is the current authenticator code (not used before) or one of the
    unused recovery codes of ``user``; either is spent by the check. Call inside a
    transaction."""
    device = (
        TwoFactorDevice.objects.select_for_update()
        .filter(user=user, confirmed_at__isnull=False)
        .first()
    )
    if device is None:
        return False
    step = _totp_step(device, code)
    if step is not None:
        device.last_step = step
        device.save(update_fields=["last_step"])
        return True
    spent = RecoveryCode.objects.filter(
        user=user, digest=_digest(code), used_at__isnull=True
    ).update(used_at=timezone.now())
    return spent == 1


@transaction.atomic
def two_factor_disable(*, request: HttpRequest, user: User, password: str, code: str) -> None:
    """Turn two-factor sign-in off, with the password and a current code (or a recovery
    code). Both count against the login throttle, like a sign-in. Admins cannot while
    ``ADMIN_2FA_REQUIRED`` is on."""
    if settings.ADMIN_2FA_REQUIRED and user.has_admin_role:
        raise PermissionDenied(REQUIRED_FOR_ADMINS, code="two_factor_required")
    if not two_factor_enabled(user):
        raise Conflict(NOT_ON, code="two_factor_off")
    register_login_attempt(request, user.username)
    if not user.check_password(password):
        raise ValidationFailed.on_field("currentPassword", PASSWORD_INCORRECT)
    if not second_factor_check(user=user, code=code):
        raise ValidationFailed(INVALID_CODE, code="invalid_code", fields={"code": INVALID_CODE})
    forget_login_attempts(request, user.username)
    TwoFactorDevice.objects.filter(user=user).delete()
    RecoveryCode.objects.filter(user=user).delete()
    UserSettings.objects.update_or_create(user=user, defaults={"two_factor_enabled": False})


def two_factor_status(*, user: User) -> dict[str, object]:
    """On or off, the recovery codes left, and whether this account must turn it on to use
    the admin tools."""
    return {
        "enabled": two_factor_enabled(user),
        "recovery_codes_left": RecoveryCode.objects.filter(user=user, used_at__isnull=True).count(),
        "required": settings.ADMIN_2FA_REQUIRED and user.has_admin_role,
    }


@transaction.atomic
def recovery_codes_renew(*, request: HttpRequest, user: User, code: str) -> list[str]:
    """Ten new recovery codes in place of the old ones, with a current code; counts against
    the login throttle like a sign-in."""
    if not two_factor_enabled(user):
        raise Conflict(NOT_ON, code="two_factor_off")
    register_login_attempt(request, user.username)
    if not second_factor_check(user=user, code=code):
        raise ValidationFailed(INVALID_CODE, code="invalid_code", fields={"code": INVALID_CODE})
    forget_login_attempts(request, user.username)
    return _recovery_codes_replace(user)
