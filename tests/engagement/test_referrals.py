"""Referrals: recorded at registration, rewarded only on qualification, capped, and a ring of
sock puppets from one /24 earns nothing."""

from __future__ import annotations

from datetime import date, timedelta
from itertools import count

import pytest
from django.utils import timezone

from project.accounts.models import User
from project.engagement.models import ActiveDay, Referral
from project.engagement.services.referrals import network_key, referrals_qualify
from project.integrity.models import IntegrityFlag
from project.scouting.models import Notification
from tests.builders import make_user
from tests.helpers import ApiClient

pytestmark = pytest.mark.django_db

_n = count()


@pytest.fixture
def referrer() -> User:
    user = make_user(name="Rae Referrer", birth_year=1985)
    # The referrer fetches their link from home: their network is now known.
    response = ApiClient().login(user).get("/api/referrals", REMOTE_ADDR="198.51.100.7")
    assert response.status_code == 200
    return user


def join(code: str, address: str, *, birth_year: int = 1995, active_days: int = 3) -> User:
    n = next(_n)
    response = ApiClient().post(
        "/api/auth/register",
        {
            "username": f"joiner{n}",
            "email": f"joiner{n}@example.com",
            "password": "secret-pass",
            "name": f"Joiner {n}",
            "birthYear": birth_year,
            "referralCode": code.lower(),
        },
        REMOTE_ADDR=address,
    )
    assert response.status_code == 201, response.content
    user = User.objects.get(username=f"joiner{n}")
    User.objects.filter(pk=user.pk).update(date_joined=timezone.now() - timedelta(days=8))
    for day in range(active_days):
        ActiveDay.objects.create(user=user, day=date(2026, 1, 1) + timedelta(days=day))
    return user


def test_a_ring_of_sock_puppets_from_one_24_earns_nothing(referrer: User) -> None:
    points = User.objects.get(pk=referrer.pk).points
    puppets = [join(referrer.referral_code, f"198.51.100.{10 + i}") for i in range(12)]

    assert referrals_qualify() == {"not_rewarded": 12}

    assert User.objects.get(pk=referrer.pk).points == points
    assert not Notification.objects.filter(user=referrer, type="referral_joined").exists()
    assert set(Referral.objects.values_list("reason", flat=True)) == {"same_network"}
    # Nor do the puppets gain anything for having been referred.
    assert {p.points for p in User.objects.filter(pk__in=[p.pk for p in puppets])} == {0}
    listed = ApiClient().login(referrer).get("/api/referrals").json()["referred"]
    assert {(r["state"], r["reason"]) for r in listed} == {("not_rewarded", "same_network")}


def test_a_real_friend_qualifies_once_with_points_and_notification(referrer: User) -> None:
    points = User.objects.get(pk=referrer.pk).points
    friend = join(referrer.referral_code, "192.0.2.44")
    assert User.objects.get(pk=friend.pk).referred_by_id == referrer.pk

    assert referrals_qualify() == {"rewarded": 1}
    assert referrals_qualify() == {}

    assert User.objects.get(pk=referrer.pk).points == points + 25
    notes = Notification.objects.filter(user=referrer, type="referral_joined")
    assert [n.message for n in notes] == [
        f"{friend.name} joined ScoutVote with your link and is now an active member. "
        "You earned 25 points."
    ]
    assert User.objects.get(pk=friend.pk).points == 0


def test_a_referral_waits_until_old_and_active_enough(referrer: User) -> None:
    young_account = join(referrer.referral_code, "192.0.2.50")
    User.objects.filter(pk=young_account.pk).update(date_joined=timezone.now() - timedelta(days=5))
    join(referrer.referral_code, "192.0.3.50", active_days=2)

    assert referrals_qualify() == {"waiting": 1}
    listed = ApiClient().login(referrer).get("/api/referrals").json()["referred"]
    assert [r["state"] for r in listed] == ["waiting", "waiting"]


def test_ten_rewarded_a_month_at_most(referrer: User) -> None:
    for i in range(11):
        join(referrer.referral_code, f"203.0.{i}.9")
    assert referrals_qualify() == {"rewarded": 10, "not_rewarded": 1}
    assert Referral.objects.get(state="not_rewarded").reason == "monthly_cap"
    assert Notification.objects.filter(user=referrer, type="referral_joined").count() == 10


def test_a_flagged_account_and_a_teen_are_not_rewarded(referrer: User) -> None:
    flagged = join(referrer.referral_code, "192.0.2.60")
    IntegrityFlag.objects.create(rule="shared_prefix", subject="x", accounts=[flagged.pk])
    join(referrer.referral_code, "192.0.4.60", birth_year=timezone.localdate().year - 15)
    referrals_qualify()
    assert dict(Referral.objects.values_list("referred__name", "reason")) == {
        flagged.name: "flagged",
        User.objects.exclude(pk__in=[flagged.pk, referrer.pk]).get().name: "not_adult",
    }


def test_a_referrer_never_seen_on_any_network_proves_nothing() -> None:
    unseen = make_user(birth_year=1985)
    join(unseen.referral_code, "192.0.2.70")
    referrals_qualify()
    assert Referral.objects.get().reason == "same_network"


def test_unknown_codes_are_ignored() -> None:
    joiner = join("NOSUCHCODE", "192.0.2.80")
    assert joiner.referred_by_id is None
    assert not Referral.objects.exists()


def test_networks_are_ipv4_24_and_ipv6_64() -> None:
    assert network_key("198.51.100.7") == network_key("198.51.100.200")
    assert network_key("198.51.100.7") != network_key("198.51.101.7")
    assert network_key("2001:db8:1:2::1") == network_key("2001:db8:1:2:ffff::9")
    assert network_key("2001:db8:1:2::1") != network_key("2001:db8:1:3::1")
    assert network_key("127.0.0.1") == ""


def test_admins_see_the_referral_tree_with_flags(referrer: User) -> None:
    friend = join(referrer.referral_code, "192.0.2.90")
    ApiClient().login(friend, "secret-pass").get("/api/referrals", REMOTE_ADDR="192.0.2.90")
    grandchild = join(friend.referral_code, "192.0.5.90")
    IntegrityFlag.objects.create(rule="shared_prefix", subject="y", accounts=[grandchild.pk])
    admin = make_user(role="admin", birth_year=1980)

    assert (
        ApiClient()
        .login(friend, "secret-pass")
        .get(f"/api/admin/referrals/{friend.pk}/tree")
        .status_code
        == 403
    )
    tree = ApiClient().login(admin).get(f"/api/admin/referrals/{friend.pk}/tree").json()

    assert [node["id"] for node in tree["invitedBy"]] == [referrer.pk]
    assert tree["member"]["id"] == friend.pk
    assert tree["member"]["state"] == "waiting"
    (child,) = tree["member"]["referred"]
    assert (child["id"], child["openFlags"], child["flags"]) == (grandchild.pk, 1, 1)
