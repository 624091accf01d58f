from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.db.models import Count
from django.utils import timezone

from project.accounts.models import User
from project.integrity.models import IntegrityFlag
from project.ops.management.commands.seed_demo import RING_SIZE, WORLD_NAMES, demo_sign_in
from project.scouting.models import Activity, Follow, Nomination, Notification, Player, Vote


def snapshot() -> dict[str, Any]:
    return {
        "users": list(User.objects.order_by("username").values_list("username", "role", "points")),
        "players": list(
            Player.objects.order_by("normalized_identity").values_list(
                "normalized_identity", "sport", "verified"
            )
        ),
        "nominations": list(
            Nomination.objects.order_by("player__normalized_identity").values_list(
                "player__normalized_identity", "status", "vote_count"
            )
        ),
        "votes": Vote.objects.count(),
        "follows": Follow.objects.count(),
        "activity": Activity.objects.count(),
        "notifications": Notification.objects.count(),
    }


@pytest.mark.django_db
def test_seed_demo_is_idempotent_and_covers_the_product() -> None:
    call_command("seed_demo", verbosity=0)
    first = snapshot()
    call_command("seed_demo", verbosity=0)
    assert snapshot() == first

    assert User.objects.filter(username="admin", role="admin").exists()
    assert User.objects.count() == 30 + RING_SIZE
    # The demo ring is flagged for the Integrity tab (one network, one nomination).
    (flag,) = IntegrityFlag.objects.filter(rule="shared_prefix")
    assert flag.evidence["accounts"] == RING_SIZE
    # Scouts are old enough to be trusted: their votes fill the trending and weekly boards.
    assert not User.objects.filter(
        username="scout1", date_joined__gt=timezone.now() - timedelta(days=2)
    ).exists()
    assert Player.objects.count() >= 55
    statuses = set(Nomination.objects.values_list("status", flat=True))
    assert statuses == {"pending", "approved", "rejected"}
    sports = set(Nomination.objects.values_list("sport", flat=True))
    assert sports == {"football", "basketball", "baseball", "soccer", "hockey"}
    assert first["votes"] > 0 and first["follows"] > 0 and first["notifications"] > 0
    # Long, accented and right-to-left names, in more than one status.
    named = Nomination.objects.filter(player__name__in=WORLD_NAMES, sport="football")
    assert named.count() == len(WORLD_NAMES)
    assert {"pending", "approved"} <= set(named.values_list("status", flat=True))
    # Counters equal rows: the seed goes through the services.
    for nomination in Nomination.objects.annotate(rows=Count("votes")):
        assert nomination.vote_count == nomination.rows


def test_the_demo_sign_in_says_the_admin_must_enrol_when_two_factor_is_required(
    settings: Any,
) -> None:
    settings.ADMIN_2FA_REQUIRED = False
    assert demo_sign_in() == (
        "Sign in with admin / scoutvote-admin (admin), scout1 / scoutvote-demo (scout)."
    )
    settings.ADMIN_2FA_REQUIRED = True
    required = demo_sign_in()
    assert required.startswith("Sign in with scout1 / scoutvote-demo (scout).")
    assert "admin / scoutvote-admin (admin), must turn on two-factor sign-in" in required
    assert "open Settings, Two-Factor Sign-In, scan the QR code" in required
