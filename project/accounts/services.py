from __future__ import annotations

from collections import Counter

from django.contrib.auth import authenticate, login, logout, update_session_auth_hash
from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.http import HttpRequest
from django.middleware.csrf import rotate_token
from django.utils import timezone

from project.accounts.models import Role, User, UserSession, UserSettings, username_key
from project.accounts.throttle import forget_login_attempts, register_login_attempt
from project.common.errors import Conflict, NotAuthenticated, PermissionDenied, ValidationFailed
from project.scouting.models import (
    Activity,
    Follow,
    Nomination,
    Notification,
    Player,
    Vote,
    VoteStatus,
)
from project.scouting.services import (
    VOTE_POINTS,
    VOTE_RECEIVED_POINTS,
    user_points_add,
    vote_counters_withdraw,
)
from realtime.publish import Event, close_user_sockets, publish, publish_summaries

INVALID_CREDENTIALS = "Invalid username or password"


def _raise_if_taken(*, username: str, email: str) -> None:
    # Compared by key (NFKC + casefold): "Scout14" or a long-s "scout14" is taken when scout14 is.
    if User.objects.filter(username_key=username_key(username)).exists():
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
) -> User:
    """Create a user together with its settings row."""
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
            )
            user.set_password(password)
            user.save()
            UserSettings.objects.create(user=user)
    except IntegrityError:
        # Lost a race with a concurrent registration of the same name or email.
        _raise_if_taken(username=username, email=email)
        raise
    return user


def user_register(
    *,
    request: HttpRequest,
    username: str,
    email: str,
    password: str,
    name: str,
    favorite_sport: str,
) -> User:
    user = user_create(
        username=username, email=email, password=password, name=name, favorite_sport=favorite_sport
    )
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return user


def user_login(*, request: HttpRequest, username: str, password: str) -> User:
    register_login_attempt(request, username)
    # The backend finds the account by its name's key (ScoutUserManager.get_by_natural_key), so
    # "SCOUT1" or a long-s "scout1" signs in as scout1 and every attempt costs exactly one hash: the
    # time taken does not tell whether a name exists in another case.
    user = authenticate(request, username=username, password=password)
    if not isinstance(user, User) or not user.is_active:
        raise NotAuthenticated(INVALID_CREDENTIALS, code="invalid_credentials")
    forget_login_attempts(request, username)
    # login() cycles the session key and the CSRF token, so a planted session cannot be reused.
    login(request, user)
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


@transaction.atomic
def user_delete(*, user: User) -> None:
    """Delete a user and everything that is theirs, keeping every counter equal to its rows.

    Removes their nominations (and the players no one else nominated, and the votes others
    cast on them: each such voter loses the point that vote earned), their votes (each
    voted nomination loses one vote and its nominator the 2 points that vote gave), follows
    by and of them, activity, notifications and sessions, then the user. Live clients learn
    of every nomination removed and every vote count changed, and the leaderboards and stats
    of the sports touched are recomputed.

    Lock order: the user's own nominations (by id), then the user row, then the nominations
    they voted for, then nominators' and voters' rows by id. The vote services lock a
    nomination before the users whose points they change, so this order does not deadlock
    with them; and with the user row locked no vote or nomination of theirs can be inserted
    meanwhile.
    """
    own = list(
        Nomination.objects.select_for_update()
        .filter(nominated_by=user)
        .order_by("pk")
        .values_list("pk", "sport", "player_id")
    )
    User.objects.select_for_update().filter(pk=user.pk).values_list("pk").get()

    # Voided votes are out of every counter and their points already (project/integrity).
    voted = list(
        Vote.objects.filter(user=user, status=VoteStatus.ACTIVE)
        .exclude(nomination__nominated_by=user)
        .order_by("nomination_id")
        .values_list("nomination_id", "nomination__nominated_by_id", "created_at", "counted")
    )
    Vote.objects.filter(user=user).delete()
    sports = {sport for _, sport, _ in own}
    for nomination_id, _, voted_at, counted in voted:
        sport = vote_counters_withdraw(
            voter=user, nomination_id=nomination_id, voted_at=voted_at, counted=counted
        )
        if sport is not None:
            sports.add(sport)
    # Points given for votes that no longer exist are taken back: each nominator they voted
    # for loses the 2 a vote gave, and each voter on the user's own nominations (deleted with
    # them below) the 1 point their vote earned. One update per user, in id order.
    deltas: Counter[int] = Counter()
    for _, nominator_id, _, counted in voted:
        if counted:  # an untrusted vote gave its nominator nothing
            deltas[nominator_id] -= VOTE_RECEIVED_POINTS
    own_ids = [nomination_id for nomination_id, _, _ in own]
    for voter_id in (
        Vote.objects.filter(nomination_id__in=own_ids, status=VoteStatus.ACTIVE)
        .exclude(user=user)
        .values_list("user_id", flat=True)
    ):
        deltas[voter_id] -= VOTE_POINTS
    for changed_id in sorted(deltas):
        if deltas[changed_id]:
            user_points_add(user_id=changed_id, delta=deltas[changed_id])

    player_ids = {player_id for _, _, player_id in own}
    nominated_by_others = Nomination.objects.filter(player=OuterRef("pk")).exclude(
        nominated_by=user
    )
    Player.objects.filter(pk__in=player_ids).exclude(Exists(nominated_by_others)).delete()
    Nomination.objects.filter(nominated_by=user).delete()
    Follow.objects.filter(Q(follower=user) | Q(followed_user=user)).delete()
    Activity.objects.filter(Q(user=user) | Q(related_user=user)).delete()
    Notification.objects.filter(user=user).delete()
    UserSession.objects.filter(user_id=user.pk).delete()
    user_id = user.pk
    user.delete()

    for nomination_id, sport, _ in own:
        publish(Event("nomination.removed", {"id": nomination_id}, sport=sport, admins=True))
    for sport in sorted(sports):
        publish_summaries(sport)
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
