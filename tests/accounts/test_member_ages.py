"""A member's own age: the year of birth asked at registration (and once at sign-in for older
accounts), the under-13 refusal that keeps nothing, a teen account's private defaults, its
absence from every surface a signed-out audience reads, and the age band in the session."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
import time_machine
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.test import Client

from project.accounts.ages import UNDER_MINIMUM_AGE
from project.accounts.models import ProfileVisibility, User, UserSession, UserSettings
from project.sharing.models import ShareCard
from project.sharing.selectors import card_is_public, cards_to_draw, public_scout
from tests.builders import PASSWORD, make_user
from tests.helpers import ApiClient, assert_error

pytestmark = pytest.mark.django_db

# Mid-2026: a year of birth of 2013 is a member of 12 or 13, 2008 one of 17 or 18.
MID_2026 = datetime.fromisoformat("2026-06-15T12:00:00+00:00")

REGISTRATION = {
    "username": "newmember",
    "password": "s3cret-pass",
    "name": "New Member",
    "email": "new.member@example.com",
}


@pytest.fixture(autouse=True)
def _fixed_clock() -> Any:
    with time_machine.travel(MID_2026, tick=False):
        yield


def register(api: ApiClient, **changes: Any) -> Any:
    return api.post("/api/auth/register", {**REGISTRATION, **changes})


def stored_rows() -> tuple[int, int, int]:
    return User.objects.count(), UserSettings.objects.count(), UserSession.objects.count()


# --- Registration ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("birth_year", "band"),
    [
        (2007, "adult"),  # 18 or 19 in 2026
        (2008, "teen"),  # 17 or 18: the youngest it can be
        (2012, "teen"),  # 13 or 14
    ],
)
def test_registration_puts_the_member_in_the_band_of_their_youngest_age(
    api: ApiClient, birth_year: int, band: str
) -> None:
    response = register(api, birthYear=birth_year)
    assert response.status_code == 201, response.content
    assert response.json()["ageBand"] == band
    assert User.objects.get(username="newmember").birth_year == birth_year
    assert api.get("/api/auth/session").json()["user"]["ageBand"] == band


@pytest.mark.parametrize("birth_year", [2013, 2014, 2026])
def test_under_13_is_refused_and_nothing_is_stored(api: ApiClient, birth_year: int) -> None:
    before = stored_rows()
    body = assert_error(register(api, birthYear=birth_year), 403, UNDER_MINIMUM_AGE)
    assert body["code"] == "under_minimum_age"
    # The answer names no field: the form is not told which answer would pass.
    assert "fields" not in body
    assert stored_rows() == before
    assert not User.objects.filter(username="newmember").exists()
    assert not Session.objects.exists() and not UserSession.objects.exists()
    assert api.get("/api/auth/session").json() == {"user": None}


def test_the_refusal_is_the_same_whatever_else_was_sent(api: ApiClient) -> None:
    make_user(username="taken")
    # A taken name does not make the refusal tell anything else.
    body = assert_error(register(api, birthYear=2015, username="taken"), 403, UNDER_MINIMUM_AGE)
    assert "fields" not in body


def test_the_year_of_birth_is_asked_in_the_specifications_words(api: ApiClient) -> None:
    # Left out, like any other field: "Required"; sent empty (the form's blank select): named.
    assert assert_error(register(api), 400)["fields"] == {"birthYear": "Required"}
    for blank in (None, ""):
        body = assert_error(register(api, birthYear=blank), 400)
        assert body["fields"] == {"birthYear": "Year of birth is required"}
    for year in (1899, 2027):
        body = assert_error(register(api, birthYear=year), 400)
        assert body["fields"] == {"birthYear": "Please enter a valid year of birth"}
    assert_error(register(api, birthYear="2000"), 400, "Invalid input")
    assert not User.objects.exists()


def test_the_browsers_time_zone_is_kept_and_checked(api: ApiClient) -> None:
    body = assert_error(register(api, birthYear=1990, timeZone="Mars/Olympus"), 400)
    assert body["fields"] == {
        "timeZone": "Time zone must be an IANA time zone such as Europe/Paris"
    }
    assert register(api, birthYear=1990, timeZone="Europe/Paris").json()["timeZone"] == (
        "Europe/Paris"
    )


def test_settings_time_zone_is_checked_against_the_servers_zones(api: ApiClient) -> None:
    assert register(api, birthYear=1990).status_code == 201
    body = assert_error(api.put("/api/settings/time-zone", {"timeZone": "Mars/Olympus"}), 400)
    assert body["fields"] == {
        "timeZone": "Time zone must be an IANA time zone such as Europe/Paris"
    }
    saved = api.put("/api/settings/time-zone", {"timeZone": "Asia/Tokyo"})
    assert saved.status_code == 200, saved.content
    assert saved.json()["timeZone"] == "Asia/Tokyo"
    assert User.objects.get().time_zone == "Asia/Tokyo"
    # "" goes back to the board's.
    assert api.put("/api/settings/time-zone", {"timeZone": ""}).json()["timeZone"] == ""


# --- A teen account's defaults --------------------------------------------------------------


def test_a_teen_account_starts_followers_only_and_not_discoverable(api: ApiClient) -> None:
    assert register(api, birthYear=2010).status_code == 201
    settings = api.get("/api/settings").json()
    assert (settings["profileVisibility"], settings["allowDiscoverability"]) == (
        "followers",
        False,
    )
    # The member may change both.
    assert api.put("/api/settings/privacy", {"profileVisibility": "public"}).status_code == 200
    changed = api.put("/api/settings/privacy", {"allowDiscoverability": True}).json()
    assert (changed["profileVisibility"], changed["allowDiscoverability"]) == ("public", True)


def test_an_adult_account_keeps_the_specifications_defaults(api: ApiClient) -> None:
    assert register(api, birthYear=1990).status_code == 201
    settings = api.get("/api/settings").json()
    assert (settings["profileVisibility"], settings["allowDiscoverability"]) == ("public", True)


# --- The public surfaces --------------------------------------------------------------------


def _public_page(path: str) -> str:
    """The page as a crawler or a chat's link preview fetches it: no cookies."""
    response = Client().get(path)
    assert response.status_code == 200
    return response.content.decode()


def _teen_who_opened_everything() -> User:
    teen = make_user(username="tia_teen", name="Tia Teenager", birth_year=2011)
    # The member made the profile public and discoverable herself: still never public.
    UserSettings.objects.filter(user=teen).update(
        profile_visibility=ProfileVisibility.PUBLIC, allow_discoverability=True
    )
    return teen


def test_a_teen_account_is_on_no_public_surface(settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.S3_BUCKET = ""
    teen = _teen_who_opened_everything()
    adult = make_user(username="ada_adult", name="Ada Adult")
    # The link preview of their page, as a crawler reads it.
    assert "Ada Adult" in _public_page(f"/scout/{adult.pk}")
    page = _public_page(f"/scout/{teen.pk}")
    assert "Tia Teenager" not in page and "tia_teen" not in page
    assert public_scout(teen.pk) is None
    # No share card is drawn for them, and none would be served.
    assert teen.pk not in cards_to_draw(limit=10)[1]
    call_command("share_cards", "--scout", str(teen.pk))
    call_command("share_cards", "--scout", str(adult.pk))
    assert not ShareCard.objects.filter(scout=teen).exists()
    adult_card = ShareCard.objects.get(scout=adult)
    assert card_is_public(adult_card.key)


def test_an_account_whose_age_is_unknown_stays_off_the_public_surfaces() -> None:
    older = make_user(username="old_timer", name="Olly Oldtimer", birth_year=None)
    assert public_scout(older.pk) is None
    assert "Olly Oldtimer" not in _public_page(f"/scout/{older.pk}")


def test_signed_in_members_see_a_teen_as_their_settings_say(scout: User) -> None:
    teen = _teen_who_opened_everything()
    api = ApiClient()
    api.login(scout)
    assert api.get(f"/api/users/{teen.pk}").json()["name"] == "Tia Teenager"
    assert teen.pk in [card["id"] for card in api.get("/api/users/scouts").json()]


# --- Accounts from before: asked once at sign-in ---------------------------------------------


def _signed_in_older_account(**fields: Any) -> tuple[ApiClient, User]:
    user = make_user(username="olderacct", name="Older Account", birth_year=None, **fields)
    api = ApiClient()
    response = api.post("/api/auth/login", {"username": "olderacct", "password": PASSWORD})
    assert response.status_code == 200
    assert response.json()["ageBand"] == "unknown"
    return api, user


def test_an_older_account_gives_its_year_once() -> None:
    api, user = _signed_in_older_account()
    response = api.put("/api/settings/birth-year", {"birthYear": 1985})
    assert response.status_code == 200
    assert response.json()["ageBand"] == "adult"
    assert api.get("/api/auth/me").json()["ageBand"] == "adult"
    # Asked once: it cannot be changed afterwards (no trying another year).
    assert_error(
        api.put("/api/settings/birth-year", {"birthYear": 2010}),
        409,
        "Your year of birth is already saved",
    )
    user.refresh_from_db()
    assert user.birth_year == 1985


def test_an_older_account_that_is_a_teen_gets_the_teen_defaults() -> None:
    api, user = _signed_in_older_account()
    assert api.put("/api/settings/birth-year", {"birthYear": 2011}).json()["ageBand"] == "teen"
    user_settings = UserSettings.objects.get(user=user)
    assert user_settings.profile_visibility == ProfileVisibility.FOLLOWERS
    assert user_settings.allow_discoverability is False


def test_an_older_account_under_13_is_closed_and_its_deletion_offered() -> None:
    api, user = _signed_in_older_account()
    other = ApiClient()
    other.login(user)
    body = assert_error(api.put("/api/settings/birth-year", {"birthYear": 2015}), 403)
    assert body["message"] == UNDER_MINIMUM_AGE and "fields" not in body
    user.refresh_from_db()
    assert user.is_active is False
    # Signed out here and everywhere, and signing in again does not work.
    assert api.get("/api/auth/session").json() == {"user": None}
    assert other.get("/api/auth/session").json() == {"user": None}
    assert not UserSession.objects.filter(user_id=user.pk).exists()
    assert_error(
        ApiClient().post("/api/auth/login", {"username": "olderacct", "password": PASSWORD}),
        401,
    )
    # The answer's token deletes the account and everything it holds, once.
    token = body["deletionToken"]
    assert api.post("/api/auth/closed-account/delete", {"deletionToken": token}).status_code == 204
    assert not User.objects.filter(pk=user.pk).exists()
    assert_error(
        api.post("/api/auth/closed-account/delete", {"deletionToken": token}),
        400,
        "This deletion link is no longer valid",
    )


def test_a_deletion_token_deletes_no_open_account(scout: User) -> None:
    from project.accounts.services import closed_account_token

    api = ApiClient()
    token = closed_account_token(scout)
    assert_error(api.post("/api/auth/closed-account/delete", {"deletionToken": token}), 400)
    assert User.objects.filter(pk=scout.pk).exists()
