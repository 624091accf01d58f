from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, Literal

from django.utils import timezone
from pydantic import AfterValidator, BeforeValidator, ConfigDict, Field
from pydantic.alias_generators import to_camel

from project.accounts.ages import OLDEST_BIRTH_YEAR, AgeBand, age_band_of, is_time_zone
from project.accounts.models import ProfileVisibility
from project.common.choices import PROFILE_SPORTS, SELECTABLE_SPORTS
from project.common.errors import ValidationFailed
from project.common.schemas import (
    CamelSchema,
    InputSchema,
    max_chars,
    min_chars,
    one_of,
    single_line,
    spec_error,
)


def _email(value: str) -> str:
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    value = value.strip()
    try:
        validate_email(value)
    except ValidationError:
        raise spec_error("Invalid email address") from None
    return value


def _username_chars(value: str) -> str:
    if not all(ch.isalnum() or ch in "@.+-_" for ch in value):
        raise spec_error("Username may contain only letters, numbers and @ . + - _")
    return value


YEAR_OF_BIRTH_REQUIRED = "Year of birth is required"
YEAR_OF_BIRTH_INVALID = "Please enter a valid year of birth"
TIME_ZONE_INVALID = "Time zone must be an IANA time zone such as Europe/Paris"


def _birth_year_given(value: object) -> object:
    if value in (None, ""):
        raise spec_error(YEAR_OF_BIRTH_REQUIRED)
    return value


def _birth_year_plausible(value: int) -> int:
    # A year of birth in the past (or this year) and after OLDEST_BIRTH_YEAR; the age rule
    # itself is the service's, so the message does not hint at which years pass.
    if not OLDEST_BIRTH_YEAR <= value <= timezone.localdate().year:
        raise spec_error(YEAR_OF_BIRTH_INVALID)
    return value


BirthYear = Annotated[
    int, BeforeValidator(_birth_year_given), AfterValidator(_birth_year_plausible)
]


def _time_zone(value: str) -> str:
    value = value.strip()
    if value and not is_time_zone(value):
        raise spec_error(TIME_ZONE_INVALID)
    return value


TimeZone = Annotated[str, Field(max_length=64), AfterValidator(_time_zone)]


def _blank_to_default(value: object) -> object:
    return "football" if value in (None, "") else value


class RegisterIn(InputSchema):
    username: Annotated[
        str,
        Field(max_length=150),
        min_chars(3, "Username must be at least 3 characters"),
        AfterValidator(_username_chars),
    ]
    password: Annotated[
        str,
        Field(max_length=256),
        min_chars(6, "Password must be at least 6 characters"),
    ]
    name: Annotated[
        str,
        Field(max_length=150),
        min_chars(1, "Name is required"),
        AfterValidator(single_line("Name")),
    ]
    email: Annotated[str, Field(max_length=254), AfterValidator(_email)]
    favorite_sport: Annotated[
        str,
        BeforeValidator(_blank_to_default),
        AfterValidator(one_of(SELECTABLE_SPORTS, "Please select a sport")),
    ] = "football"
    birth_year: BirthYear
    # The browser's IANA time zone (Intl.DateTimeFormat().resolvedOptions().timeZone).
    time_zone: TimeZone = ""
    # The code of the member whose link (/register?ref=CODE) brought the visitor; an unknown
    # one is ignored (project/engagement).
    referral_code: Annotated[str, Field(max_length=16)] = ""


class LoginIn(InputSchema):
    username: Annotated[str, Field(max_length=150), min_chars(1, "Username is required")]
    password: Annotated[str, Field(max_length=256), min_chars(1, "Password is required")]
    # The authenticator's current code or a recovery code, when the account asks for one.
    code: Annotated[str, Field(max_length=32)] = ""
    # The browser's IANA time zone: saved on the account when it has none yet.
    time_zone: TimeZone = ""


class BirthYearIn(InputSchema):
    birth_year: BirthYear


class TimeZoneIn(InputSchema):
    time_zone: TimeZone


class ClosedAccountDeleteIn(InputSchema):
    deletion_token: Annotated[str, Field(max_length=500)]


class TwoFactorSetupOut(CamelSchema):
    secret: str
    otpauth_uri: str
    qr_svg: str


class TwoFactorCodeIn(InputSchema):
    code: Annotated[str, Field(max_length=32), min_chars(1, "Code is required")]


class RecoveryCodesOut(CamelSchema):
    recovery_codes: list[str]


class TwoFactorDisableIn(InputSchema):
    current_password: Annotated[
        str,
        Field(max_length=256),
        min_chars(1, "Current password is required"),
    ]
    code: Annotated[str, Field(max_length=32), min_chars(1, "Code is required")]


class TwoFactorStatusOut(CamelSchema):
    enabled: bool
    recovery_codes_left: int
    required: bool


class WithAvatar(CamelSchema):
    """A user shape with ``avatarUrl``: null when the user has no picture."""

    avatar_url: str | None

    @staticmethod
    def resolve_avatar_url(obj: Any) -> str | None:
        return obj.avatar_url or None


class MeOut(WithAvatar):
    id: int
    username: str
    role: str
    name: str
    email: str
    # The SPA stores it as the selected sport at sign-in when nothing is stored yet.
    favorite_sport: str
    # Whether this session acts as an admin (the admin role and, with ADMIN_2FA_REQUIRED, a
    # session that passed the second factor): an admin without it is a member until they
    # turn on two-factor sign-in, or sign in again with their code.
    acts_as_admin: bool

    # teen (13 to 17), adult, or unknown (an account from before years of birth were asked:
    # the SPA asks it once after sign-in). Features for adults hide themselves for teens.
    age_band: Literal["teen", "adult", "unknown"]
    # The member's IANA time zone ("" until one is known: the board's is used).
    time_zone: str

    @staticmethod
    def resolve_acts_as_admin(obj: Any) -> bool:
        return bool(obj.is_admin)

    @staticmethod
    def resolve_age_band(obj: Any) -> str:
        band = age_band_of(obj.birth_year)
        # An account under 13 is deactivated and never has a session to read this in.
        return AgeBand.TEEN.value if band == AgeBand.UNDER_13 else band.value


class SessionOut(CamelSchema):
    # The signed-in user, or None when signed out.
    user: MeOut | None


class CsrfOut(CamelSchema):
    csrf_token: str


def _strict_bool(name: str) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if value is not None and not isinstance(value, bool):
            raise spec_error(f"{name} must be true or false")
        return value

    return check


class ScoutCardOut(WithAvatar):
    """A scout as /discover lists it."""

    id: int
    username: str
    name: str
    bio: str
    location: str
    favorite_sport: str
    points: int


class ScoutOut(ScoutCardOut):
    """One scout's page. ``email`` and ``phoneNumber`` are null unless the viewer is that
    user or an admin; the counts follow what the viewer may see."""

    email: str | None
    phone_number: str | None
    role: str
    created_at: datetime
    follower_count: int
    nomination_count: int
    is_following: bool

    @staticmethod
    def resolve_email(obj: Any) -> str | None:
        return obj.email if obj.contact_visible else None

    @staticmethod
    def resolve_phone_number(obj: Any) -> str | None:
        return obj.phone_number if obj.contact_visible else None


class ProfileOut(WithAvatar):
    id: int
    username: str
    name: str
    email: str
    bio: str
    location: str
    favorite_sport: str
    phone_number: str
    points: int
    role: str


def _profile_sport(value: str) -> str:
    value = value.strip()
    if value and value not in PROFILE_SPORTS:
        raise spec_error("Please select a valid sport")
    return value


class ProfileIn(InputSchema):
    """The editable profile fields. A field left out (or null) keeps its value; any other key
    in the body (username, role, points...) is ignored: those are never written here."""

    name: (
        Annotated[
            str,
            min_chars(1, "Name is required"),
            max_chars(150, "Name must be at most 150 characters"),
            AfterValidator(single_line("Name")),
        ]
        | None
    ) = None
    bio: Annotated[str, max_chars(1000, "Bio must be at most 1000 characters")] | None = None
    location: Annotated[str, max_chars(200, "Location must be at most 200 characters")] | None = (
        None
    )
    favorite_sport: Annotated[str, AfterValidator(_profile_sport)] | None = None
    phone_number: (
        Annotated[str, max_chars(40, "Phone number must be at most 40 characters")] | None
    ) = None


class SettingsOut(CamelSchema):
    email_notifications: bool
    vote_notifications: bool
    nomination_notifications: bool
    vote_emails: bool
    nomination_emails: bool
    weekly_digest: bool
    profile_visibility: str
    allow_discoverability: bool
    two_factor_enabled: bool
    password_changed_at: datetime | None


class PasswordChangeIn(InputSchema):
    current_password: Annotated[str, Field(max_length=256)]
    new_password: Annotated[
        str,
        Field(max_length=256),
        min_chars(6, "Password must be at least 6 characters"),
    ]


class SingleSettingIn(InputSchema):
    """A settings change that carries exactly one known field (the SPA saves each toggle on
    its own). Unknown keys are refused (400 naming the key), so a typo is not a silent no-op."""

    model_config = ConfigDict(extra="forbid")

    def single_change(self) -> tuple[str, Any]:
        given = [(name, value) for name, value in self if value is not None]
        if len(given) != 1:
            listing = ", ".join(to_camel(name) for name in type(self).model_fields)
            raise ValidationFailed(f"Send exactly one of: {listing}")
        return given[0]


class NotificationSettingsIn(SingleSettingIn):
    email_notifications: Annotated[
        bool | None, BeforeValidator(_strict_bool("emailNotifications"))
    ] = None
    vote_notifications: Annotated[
        bool | None, BeforeValidator(_strict_bool("voteNotifications"))
    ] = None
    nomination_notifications: Annotated[
        bool | None, BeforeValidator(_strict_bool("nominationNotifications"))
    ] = None
    vote_emails: Annotated[bool | None, BeforeValidator(_strict_bool("voteEmails"))] = None
    nomination_emails: Annotated[bool | None, BeforeValidator(_strict_bool("nominationEmails"))] = (
        None
    )
    weekly_digest: Annotated[bool | None, BeforeValidator(_strict_bool("weeklyDigest"))] = None


class PrivacySettingsIn(SingleSettingIn):
    profile_visibility: (
        Annotated[
            str,
            AfterValidator(
                one_of(
                    ProfileVisibility.values,
                    "Profile visibility must be public, followers or private",
                )
            ),
        ]
        | None
    ) = None
    allow_discoverability: Annotated[
        bool | None, BeforeValidator(_strict_bool("allowDiscoverability"))
    ] = None


class ProfileExportOut(CamelSchema):
    exported_at: datetime
    account: dict[str, Any]
    settings: dict[str, Any] | None
    nominations: list[dict[str, Any]]
    votes: list[dict[str, Any]]
    follows: list[dict[str, Any]]
    followers: int
    activity: list[dict[str, Any]]
    notifications: list[dict[str, Any]]
    reports: list[dict[str, Any]]
    # The player updates the member wrote (project/updates registers the section).
    player_updates: list[dict[str, Any]] = []
    # project/coaches: the member's requests to be a verified coach, the endorsements written.
    coach_verifications: list[dict[str, Any]] = []
    endorsements: list[dict[str, Any]] = []
    comments: list[dict[str, Any]] = []
    # An adult's quests, streak and referrals (project/engagement); null when it holds none.
    engagement: dict[str, Any] | None = None
