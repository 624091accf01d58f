from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth import authenticate, login, logout, update_session_auth_hash
from django.core import signing
from django.db import IntegrityError, connection, transaction
from django.http import HttpRequest
from django.middleware.csrf import rotate_token
from django.utils import timezone

from project.accounts.ages import UNDER_MINIMUM_AGE, AgeBand, age_band_of
from project.accounts.models import ProfileVisibility, Role, User, UserSession, UserSettings
from project.accounts.throttle import client_ip, forget_login_attempts, register_login_attempt
from project.accounts.two_factor import INVALID_CODE, second_factor_check, two_factor_enabled
from project.common.errors import Conflict, NotAuthenticated, PermissionDenied, ValidationFailed
from project.common.second_factor import acts_as_admin, second_factor_passed
from realtime.publish import close_user_sockets

INVALID_CREDENTIALS = "Invalid username or password"
TWO_FACTOR_NEEDED = "Enter the code from your authenticator app"


def _raise_if_taken(*, username: str, email: str) -> None:
    # Compared by key (NFKC + casefold): "Scout14" or a long-s "scout14" is taken when scout14
    # is; and by skeleton (UTS #39): so is "scout14" with a Cyrillic s (U+0455), or "scoutl4".
    if User.objects.confusable_with(username).exists():
        raise Conflict(
            "Username is already taken",
            code="username_taken",
            fields={"username": "Username is already taken"},
        )
    if User.objects.filter(email__iexact=email).exists():
        raise Conflict(
            "An account with this email already exists",
            code="email_taken",
            fields={"email": "An account with this email already exists"},
        )


@transaction.atomic
def user_create(
    *,
    username: str,
    email: str,
    password: str,
    name: str,
    favorite_sport: str = "football",
    role: str = Role.SCOUT,
    birth_year: int | None = None,
    time_zone: str = "",
) -> User:
    """Create a user together with its settings row. A teen account starts with a profile
    visible to followers only and not discoverable (the member may change both)."""
    _raise_if_taken(username=username, email=email)
    try:
        with transaction.atomic():
            user = User(
                username=username,
                email=email.lower(),
                name=name,
                favorite_sport=favorite_sport,
                role=role,
                is_staff=role == Role.ADMIN,
                birth_year=birth_year,
                time_zone=time_zone,
            )
            user.set_password(password)
            user.save()
            UserSettings.objects.create(user=user, **_settings_defaults(user))
    except IntegrityError:
        # Lost a race with a concurrent registration of the same name or email.
        _raise_if_taken(username=username, email=email)
        raise
    return user


def _settings_defaults(user: User) -> dict[str, object]:
    if age_band_of(user.birth_year) == AgeBand.TEEN:
        return {
            "profile_visibility": ProfileVisibility.FOLLOWERS,
            "allow_discoverability": False,
        }
    return {}


def _refuse_under_minimum_age() -> PermissionDenied:
    # No field named: the answer is about the product, not about the year typed.
    return PermissionDenied(UNDER_MINIMUM_AGE, code="under_minimum_age")


def user_register(
    *,
    request: HttpRequest,
    username: str,
    email: str,
    password: str,
    name: str,
    favorite_sport: str,
    birth_year: int,
    time_zone: str = "",
    referral_code: str = "",
) -> User:
    """Create an account and sign it in. Under 13 the account is refused before anything is
    read or written: no row, no session, and the answer the same whatever else was sent.
    The apps registered on ``register_user_registered`` (referrals) then see the new account
    with the referral code it came with."""
    if age_band_of(birth_year) == AgeBand.UNDER_13:
        raise _refuse_under_minimum_age()
    with transaction.atomic():
        user = user_create(
            username=username,
            email=email,
            password=password,
            name=name,
            favorite_sport=favorite_sport,
            birth_year=birth_year,
            time_zone=time_zone,
        )
        for hook in _registered_hooks:
            hook(Registered(user=user, referral_code=referral_code, address=client_ip(request)))
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return user


@dataclass(frozen=True)
class Registered:
    """An account just created by registration: the referral code sent with it ("" when
    none) and the client's address (for the apps that keep a keyed hash of its network)."""

    user: User
    referral_code: str
    address: str


_registered_hooks: list[Callable[[Registered], None]] = []


def register_user_registered(hook: Callable[[Registered], None]) -> None:
    """Run ``hook`` for each account registration creates (apps above accounts, from their
    ``ready()``)."""
    if hook not in _registered_hooks:
        _registered_hooks.append(hook)


BIRTH_YEAR_ALREADY_GIVEN = "Your year of birth is already saved"


def birth_year_give(*, request: HttpRequest, user: User, birth_year: int) -> User:
    """Save the year of birth of an account from before it was asked (asked once: a year
    already saved answers 409, so it cannot be changed to pass). A teen account gets the teen
    defaults for its profile's privacy. Under 13 the account is deactivated at once (signed
    out everywhere, its sockets closed, seen by no one) and the answer is 403 with a
    ``deletionToken`` that deletes it and everything it holds (``closed_account_delete``)."""
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.birth_year is not None:
            raise Conflict(BIRTH_YEAR_ALREADY_GIVEN, code="birth_year_already_given")
        locked.birth_year = birth_year
        band = age_band_of(birth_year)
        if band == AgeBand.UNDER_13:
            locked.is_active = False
            locked.save(update_fields=["birth_year", "is_active"])
            UserSession.objects.filter(user_id=locked.pk).delete()
        else:
            locked.save(update_fields=["birth_year"])
            if band == AgeBand.TEEN:
                settings = _settings_for_update(locked)
                for field, value in _settings_defaults(locked).items():
                    setattr(settings, field, value)
                settings.save()
    if band == AgeBand.UNDER_13:
        logout(request)
        rotate_token(request)
        close_user_sockets(locked.pk, reason="account_closed")
        error = _refuse_under_minimum_age()
        error.extra = {"deletionToken": closed_account_token(locked)}
        raise error
    user.birth_year = birth_year
    return user


_CLOSED_ACCOUNT_SALT = "accounts.closed-account-deletion"
CLOSED_ACCOUNT_TOKEN_SECONDS = 7 * 24 * 3600
DELETION_LINK_INVALID = "This deletion link is no longer valid"


def closed_account_token(user: User) -> str:
    return signing.dumps(user.pk, salt=_CLOSED_ACCOUNT_SALT)


def closed_account_delete(*, token: str) -> None:
    """Delete an account closed for being under 13, with the token its closing answered (valid
    a week). Any other account, or a spent or stale token, answers 400."""
    try:
        user_id = signing.loads(
            token, salt=_CLOSED_ACCOUNT_SALT, max_age=CLOSED_ACCOUNT_TOKEN_SECONDS
        )
    except signing.BadSignature:
        raise ValidationFailed(DELETION_LINK_INVALID, code="deletion_token_invalid") from None
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=user_id, is_active=False).first()
        if user is None or age_band_of(user.birth_year) != AgeBand.UNDER_13:
            raise ValidationFailed(DELETION_LINK_INVALID, code="deletion_token_invalid")
        user_delete(user=user)


def time_zone_set(*, user: User, time_zone: str) -> User:
    """Save the member's time zone ("" goes back to the board's)."""
    user.time_zone = time_zone
    user.save(update_fields=["time_zone"])
    return user


def user_login(
    *, request: HttpRequest, username: str, password: str, code: str = "", time_zone: str = ""
) -> User:
    """Sign in with the password and, when the account has two-factor sign-in on, a current
    authenticator or recovery code. The code is asked for only once the password is right: a
    wrong password answers ``invalid_credentials`` whether or not the account has two-factor
    sign-in, so the answer does not tell which accounts have it; a right password without a
    code answers 401 ``two_factor_required``, and with a wrong or spent code 401
    ``invalid_code`` at the code field. Every attempt counts against the throttle."""
    register_login_attempt(request, username)
    # The backend finds the account by its name's key (ScoutUserManager.get_by_natural_key), so
    # "SCOUT1" or a long-s "scout1" signs in as scout1 and every attempt costs exactly one hash: the
    # time taken does not tell whether a name exists in another case.
    found = authenticate(request, username=username, password=password)
    user = found if isinstance(found, User) and found.is_active else None
    if user is None:
        raise NotAuthenticated(INVALID_CREDENTIALS, code="invalid_credentials")
    guarded = two_factor_enabled(user)
    if guarded:
        if not code:
            raise NotAuthenticated(TWO_FACTOR_NEEDED, code="two_factor_required")
        with transaction.atomic():
            if not second_factor_check(user=user, code=code):
                raise NotAuthenticated(
                    INVALID_CODE, code="invalid_code", fields={"code": INVALID_CODE}
                )
    forget_login_attempts(request, username)
    # login() cycles the session key and the CSRF token, so a planted session cannot be reused.
    login(request, user)
    if guarded:
        second_factor_passed(request.session, user.pk)
    # What the middleware marks on a request's user, for the answer (MeOut.actsAsAdmin).
    user.acting_admin = acts_as_admin(user, request.session)
    if time_zone and not user.time_zone:
        # The browser's zone, until the member picks one in Settings.
        time_zone_set(user=user, time_zone=time_zone)
    return user


def user_logout(*, request: HttpRequest) -> None:
    user_id = request.user.pk if request.user.is_authenticated else None
    logout(request)
    rotate_token(request)
    if user_id is not None:
        close_user_sockets(int(user_id), reason="logout")


PROFILE_FIELDS = ("name", "bio", "location", "favorite_sport", "phone_number")


def profile_update(*, user: User, changes: dict[str, str]) -> User:
    """Write the editable profile fields present in ``changes``; any other key is ignored,
    so neither role, points nor username can be changed here."""
    fields = [name for name in PROFILE_FIELDS if changes.get(name) is not None]
    for name in fields:
        setattr(user, name, changes[name])
    if fields:
        user.save(update_fields=fields)
    return user


def _settings_for_update(user: User) -> UserSettings:
    settings, _ = UserSettings.objects.select_for_update().get_or_create(user=user)
    return settings


@transaction.atomic
def user_settings_update(*, user: User, field: str, value: object) -> UserSettings:
    """Save one notification or privacy setting (the SPA saves each toggle on its own)."""
    settings = _settings_for_update(user)
    setattr(settings, field, value)
    settings.save(update_fields=[field, "updated_at"])
    return settings


CURRENT_PASSWORD_INCORRECT = "Current password is incorrect"


@transaction.atomic
def user_password_change(
    *, request: HttpRequest, user: User, current_password: str, new_password: str
) -> UserSettings:
    """Change the password, keep this session and end every other one.

    Other sessions stop working at once because the session auth hash changes with the
    password; their rows are deleted too (``UserSession`` indexes them by user), and the
    user's sockets are closed so no tab keeps a live connection on an old session. Wrong
    guesses count against the login throttle: this call also tells whether a password is right.
    """
    register_login_attempt(request, user.username)
    if not user.check_password(current_password):
        raise ValidationFailed.on_field("currentPassword", CURRENT_PASSWORD_INCORRECT)
    forget_login_attempts(request, user.username)
    user.set_password(new_password)
    user.save(update_fields=["password"])
    settings = _settings_for_update(user)
    settings.password_changed_at = timezone.now()
    settings.save(update_fields=["password_changed_at", "updated_at"])
    socket_session = request.session.session_key
    # Cycles this session's key and stores the new hash in it.
    update_session_auth_hash(request, user)
    UserSession.objects.filter(user_id=user.pk).exclude(
        session_key=request.session.session_key
    ).delete()
    close_user_sockets(user.pk, reason="password_changed", keep_session=socket_session)
    return settings


# What other apps keep about a user goes with the account, in the same transaction: each app
# above accounts registers how (its AppConfig.ready()), so accounts imports none of them.
UserDeletionStep = Callable[[User], None]
_deletion_steps: list[UserDeletionStep] = []


def register_user_deletion_step(step: UserDeletionStep) -> None:
    if step not in _deletion_steps:
        _deletion_steps.append(step)


@transaction.atomic
def user_delete(*, user: User) -> None:
    """Delete a user and everything that is theirs, in one transaction: first what each
    registered app keeps about them (scouting: nominations, votes, follows, activity,
    notifications, keeping every counter equal to its rows), then their sessions and the user,
    whose sockets are closed after the commit."""
    for step in _deletion_steps:
        step(user)
    UserSession.objects.filter(user_id=user.pk).delete()
    user_id = user.pk
    user.delete()
    close_user_sockets(user_id, reason="account_deleted")


ADMIN_REQUIRED = "Admin access required"
LAST_ADMIN = "The last admin cannot be removed or demoted"
# pg_advisory_xact_lock key of "who is an admin" (any constant no other code uses).
_ADMIN_MEMBERSHIP_LOCK = 0x5C0_7AD1


def admins_lock(*, caller: User | None = None) -> set[int]:
    """Serialise every change of who is an admin (role change, deletion) until the transaction
    ends, and return the active admins' ids as committed now. With ``caller``, their role is
    re-checked under the lock: an admin demoted or deleted a moment ago gets 403, so two
    admins demoting or deleting each other at once cannot both succeed.

    An advisory lock rather than row locks: it takes no user or nomination row, so it cannot
    deadlock with the vote services. SQLite runs one writing transaction at a time anyway."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("admins_lock() needs a transaction")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_ADMIN_MEMBERSHIP_LOCK])
    admins = set(User.objects.filter(role=Role.ADMIN, is_active=True).values_list("pk", flat=True))
    if caller is not None and caller.pk not in admins:
        raise PermissionDenied(ADMIN_REQUIRED, code="admin_required")
    return admins


def refuse_last_admin(admins: set[int], user_id: int) -> None:
    """409 when ``user_id`` is the only admin left (it is about to be demoted or deleted)."""
    if user_id in admins and not admins - {user_id}:
        raise Conflict(LAST_ADMIN, code="last_admin")


def account_delete(*, request: HttpRequest, user: User) -> None:
    """A user deletes their own account, then is signed out. The last admin cannot (409)."""
    with transaction.atomic():
        refuse_last_admin(admins_lock(), user.pk)
        user_delete(user=user)
    logout(request)
    rotate_token(request)
