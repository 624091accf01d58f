from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from ninja import Status
from ninja.responses import codes_4xx

from project.accounts import export, selectors, services, two_factor
from project.accounts.auth import csrf_only, current_user
from project.accounts.schemas import (
    BirthYearIn,
    ClosedAccountDeleteIn,
    CsrfOut,
    LoginIn,
    MeOut,
    NotificationSettingsIn,
    PasswordChangeIn,
    PrivacySettingsIn,
    ProfileExportOut,
    ProfileIn,
    ProfileOut,
    RecoveryCodesOut,
    RegisterIn,
    ScoutCardOut,
    ScoutOut,
    SessionOut,
    SettingsOut,
    TimeZoneIn,
    TwoFactorCodeIn,
    TwoFactorDisableIn,
    TwoFactorSetupOut,
    TwoFactorStatusOut,
)
from project.accounts.throttle import client_ip
from project.common.addresses import address_key
from project.common.budgets import budget_for
from project.common.pagination import Pager, paginate
from project.common.router import Router
from project.common.schemas import ErrorOut

router = Router(tags=["auth"])


@router.get("/csrf", response=CsrfOut, auth=None, summary="Set the CSRF cookie for the SPA")
def csrf(request: HttpRequest) -> dict[str, str]:
    return {"csrf_token": get_token(request)}


@router.post(
    "/register",
    response={201: MeOut, codes_4xx: ErrorOut},
    auth=csrf_only,
    summary="Create an account",
    description='`birthYear` is required (400 "Year of birth is required", or "Please '
    'enter a valid year of birth" for a year not between 1900 and this year). Under 13 the '
    'answer is 403 `under_minimum_age` "ScoutVote accounts are for people aged 13 and over." '
    "with no field named, and nothing is stored. From 13 to 17 the account is a teen account: "
    "its profile starts visible to followers only and not discoverable, it appears on no "
    "public surface, and it gets no email or push from 21:00 to 08:00 in its `timeZone` (the "
    "browser's IANA zone; the board's when not sent). 429 `throttled` with `Retry-After` when "
    "too many accounts were created from the caller's address (an IPv6 /64 counts as one) in "
    "the last hour (`BUDGET_REGISTRATIONS_PER_HOUR`); nothing is written. 503 "
    "`service_unavailable` with `Retry-After` while the shared counters (Redis) cannot be reached.",
)
def register(request: HttpRequest, payload: RegisterIn) -> Status[object]:
    with budget_for("REGISTRATIONS", address_key(client_ip(request)), "HOUR"):
        user = services.user_register(request=request, **payload.dict())
    return Status(201, user)


@router.post(
    "/login",
    response={200: MeOut, codes_4xx: ErrorOut},
    auth=csrf_only,
    summary="Sign in",
    description='401 `invalid_credentials` "Invalid username or password" for a wrong password '
    "(the same answer whether or not the account has two-factor sign-in). Once the password is "
    "right, an account with two-factor sign-in answers 401 `two_factor_required` without a "
    "`code`, and 401 `invalid_code` with `fields.code` for a wrong or spent one. Every attempt "
    "counts against the login throttle (429). `actsAsAdmin`: whether this session may use the "
    "admin tools. `timeZone` (the browser's IANA zone) is saved when the account has none. "
    "`ageBand` `unknown`: the account has no year of birth yet; the SPA asks it once "
    "(`PUT /api/settings/birth-year`).",
)
def login(request: HttpRequest, payload: LoginIn) -> object:
    return services.user_login(
        request=request,
        username=payload.username,
        password=payload.password,
        code=payload.code,
        time_zone=payload.time_zone,
    )


@router.post(
    "/closed-account/delete",
    response={204: None, codes_4xx: ErrorOut},
    auth=csrf_only,
    summary="Delete an account closed for being under 13",
    description="With the `deletionToken` that closing it answered (valid a week): deletes the "
    'account and everything it holds. 400 `deletion_token_invalid` "This deletion link is no '
    'longer valid" otherwise.',
)
def closed_account_delete(request: HttpRequest, payload: ClosedAccountDeleteIn) -> Status[None]:
    services.closed_account_delete(token=payload.deletion_token)
    return Status(204, None)


@router.post(
    "/logout", response={204: None, codes_4xx: ErrorOut}, auth=csrf_only, summary="Sign out"
)
def logout(request: HttpRequest) -> Status[None]:
    services.user_logout(request=request)
    return Status(204, None)


@router.get(
    "/2fa",
    response={200: TwoFactorStatusOut, codes_4xx: ErrorOut},
    summary="My two-factor sign-in",
    description="`required`: this account must turn it on to use the admin tools "
    "(`ADMIN_2FA_REQUIRED`).",
)
def two_factor_status(request: HttpRequest) -> dict[str, object]:
    return two_factor.two_factor_status(user=current_user(request))


@router.post(
    "/2fa/setup",
    response={200: TwoFactorSetupOut, codes_4xx: ErrorOut},
    summary="Start turning on two-factor sign-in",
    description="A new authenticator secret, as a QR code (SVG) and as text; it takes effect "
    "with its first code (`POST /api/auth/2fa/confirm`).",
)
def two_factor_setup(request: HttpRequest) -> object:
    return two_factor.two_factor_setup(user=current_user(request))


@router.post(
    "/2fa/confirm",
    response={200: RecoveryCodesOut, codes_4xx: ErrorOut},
    summary="Turn on two-factor sign-in with the app's first code",
    description="Answers ten single-use recovery codes, shown this once.",
)
def two_factor_confirm(request: HttpRequest, payload: TwoFactorCodeIn) -> dict[str, object]:
    codes = two_factor.two_factor_confirm(
        request=request, user=current_user(request), code=payload.code
    )
    return {"recovery_codes": codes}


@router.post(
    "/2fa/recovery-codes",
    response={200: RecoveryCodesOut, codes_4xx: ErrorOut},
    summary="New recovery codes (the old ones stop working)",
)
def recovery_codes_renew(request: HttpRequest, payload: TwoFactorCodeIn) -> dict[str, object]:
    codes = two_factor.recovery_codes_renew(
        request=request, user=current_user(request), code=payload.code
    )
    return {"recovery_codes": codes}


@router.post(
    "/2fa/disable",
    response={204: None, codes_4xx: ErrorOut},
    summary="Turn off two-factor sign-in",
    description="With the password and a current code or a recovery code. Admins cannot while "
    "`ADMIN_2FA_REQUIRED` is on.",
)
def two_factor_disable(request: HttpRequest, payload: TwoFactorDisableIn) -> Status[None]:
    two_factor.two_factor_disable(
        request=request,
        user=current_user(request),
        password=payload.current_password,
        code=payload.code,
    )
    return Status(204, None)


@router.get("/me", response={200: MeOut, codes_4xx: ErrorOut}, summary="The signed-in user")
def me(request: HttpRequest) -> object:
    return current_user(request)


@router.get(
    "/session",
    response=SessionOut,
    auth=None,
    summary="Who is signed in, if anyone",
    description="Always 200: `user` is the signed-in user as `GET /api/auth/me` returns it, or "
    "null when signed out. The SPA asks this on start, so a signed-out visit is no error.",
)
def session(request: HttpRequest) -> dict[str, object]:
    return {"user": selectors.session_user(request)}


users_router = Router(tags=["users"])


@users_router.get(
    "/scouts",
    response={200: list[ScoutCardOut], codes_4xx: ErrorOut},
    summary="Discoverable scouts, most points first (then newest)",
    description=(
        "Active users who allow discoverability and whose profile is not private. "
        "Paginated: `limit` (default 50, max 200) and `cursor`; the next page is in the "
        '`Link: <url>; rel="next"` header.'
    ),
)
@paginate()
def scouts(request: HttpRequest) -> Pager:
    return selectors.scout_list


@users_router.get(
    "/suggested",
    response={200: list[ScoutCardOut], codes_4xx: ErrorOut},
    summary="Scouts to follow: up to 5 discoverable scouts the caller does not follow yet",
    description=(
        "Those who share the caller's favourite sport first, then by points. Never the caller, "
        "accounts under an open integrity flag or suspended accounts."
    ),
)
def scouts_suggested(request: HttpRequest) -> list[object]:
    return list(selectors.scout_suggestions(viewer=current_user(request)))


@users_router.get(
    "/{int:user_id}",
    response={200: ScoutOut, codes_4xx: ErrorOut},
    summary="One scout's profile",
    description=(
        '404 "Scout not found" when the user does not exist, is inactive, or their profile is '
        "private, or followers-only and the viewer does not follow them (oneself and admins "
        "always see it). email and phoneNumber are null except for oneself and admins."
    ),
)
def scout(request: HttpRequest, user_id: int) -> object:
    return selectors.scout_get(viewer=current_user(request), user_id=user_id)


profile_router = Router(tags=["profile"])


@profile_router.get("", response={200: ProfileOut, codes_4xx: ErrorOut}, summary="My profile")
def profile(request: HttpRequest) -> object:
    return current_user(request)


@profile_router.put(
    "",
    response={200: ProfileOut, codes_4xx: ErrorOut},
    summary="Edit my profile",
    description=(
        "Writes name, bio, location, favoriteSport and phoneNumber; a field left out or null "
        "is kept. Any other key (username, email, role, points...) is ignored."
    ),
)
def profile_update(request: HttpRequest, payload: ProfileIn) -> object:
    return services.profile_update(user=current_user(request), changes=payload.dict())


@profile_router.get(
    "/export",
    response={200: ProfileExportOut, codes_4xx: ErrorOut},
    summary="Download everything the product holds about me",
    description="Account, settings, nominations, votes, follows, activity, notifications, "
    "reports and comments, as one JSON document. At most once an hour: 429 with Retry-After.",
)
def profile_export(request: HttpRequest, response: HttpResponse) -> dict[str, object]:
    response["Content-Disposition"] = 'attachment; filename="scoutvote-my-data.json"'
    return export.profile_export_take(user=current_user(request))


settings_router = Router(tags=["settings"])


@settings_router.get("", response={200: SettingsOut, codes_4xx: ErrorOut}, summary="My settings")
def settings(request: HttpRequest) -> object:
    return selectors.user_settings_get(user=current_user(request))


@settings_router.put(
    "/password",
    response={200: SettingsOut, codes_4xx: ErrorOut},
    summary="Change my password",
    description=(
        '400 "Current password is incorrect" (fields.currentPassword) or "Password must be at '
        'least 6 characters" (fields.newPassword). On success this session stays signed in, '
        "every other session of the user ends and their live sockets close. Wrong current "
        "passwords count against the login throttle (429)."
    ),
)
def password_change(request: HttpRequest, payload: PasswordChangeIn) -> object:
    return services.user_password_change(
        request=request,
        user=current_user(request),
        current_password=payload.current_password,
        new_password=payload.new_password,
    )


@settings_router.put(
    "/notifications",
    response={200: SettingsOut, codes_4xx: ErrorOut},
    summary="Change one notification setting",
    description=(
        "Exactly one of emailNotifications (every notification email), voteNotifications, "
        "nominationNotifications (in the app and on the member's devices), voteEmails, "
        "nominationEmails (by email), weeklyDigest (a boolean); anything else is a 400. "
        "Answers the whole settings shape."
    ),
)
def notifications_update(request: HttpRequest, payload: NotificationSettingsIn) -> object:
    field, value = payload.single_change()
    return services.user_settings_update(user=current_user(request), field=field, value=value)


@settings_router.put(
    "/privacy",
    response={200: SettingsOut, codes_4xx: ErrorOut},
    summary="Change one privacy setting",
    description=(
        "Exactly one of profileVisibility (public | followers | private) or "
        "allowDiscoverability (a boolean); anything else is a 400. Answers the whole "
        "settings shape."
    ),
)
def privacy_update(request: HttpRequest, payload: PrivacySettingsIn) -> object:
    field, value = payload.single_change()
    return services.user_settings_update(user=current_user(request), field=field, value=value)


@settings_router.put(
    "/birth-year",
    response={200: MeOut, codes_4xx: ErrorOut},
    summary="Give my year of birth (accounts from before it was asked)",
    description="Asked once: 409 `birth_year_already_given` when the account has one. A teen "
    "account (13 to 17) gets a profile visible to followers only and not discoverable. Under "
    '13: 403 `under_minimum_age` "ScoutVote accounts are for people aged 13 and over.": the '
    "account is deactivated at once and signed out everywhere, and the answer carries a "
    "`deletionToken` for `POST /api/auth/closed-account/delete`.",
)
def birth_year_give(request: HttpRequest, payload: BirthYearIn) -> object:
    return services.birth_year_give(
        request=request, user=current_user(request), birth_year=payload.birth_year
    )


@settings_router.put(
    "/time-zone",
    response={200: MeOut, codes_4xx: ErrorOut},
    summary="Set my time zone",
    description='An IANA time zone ("Europe/Paris"), or "" for the board\'s. A teen account\'s '
    "quiet hours (no email or push from 21:00 to 08:00) are kept in it.",
)
def time_zone_set(request: HttpRequest, payload: TimeZoneIn) -> object:
    return services.time_zone_set(user=current_user(request), time_zone=payload.time_zone)


@settings_router.delete(
    "/account",
    response={204: None, codes_4xx: ErrorOut},
    summary="Delete my account",
    description=(
        "Deletes the account with its nominations (and players no one else nominated), "
        "votes, follows, activity and notifications, then signs out. No body."
    ),
)
def account_delete(request: HttpRequest) -> Status[None]:
    services.account_delete(request=request, user=current_user(request))
    return Status(204, None)
