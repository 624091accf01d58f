"""The skeleton: database constraints, the SPA fallback, the deploy check, error bodies."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import IntegrityError, transaction
from django.test import Client

from project.scouting.models import Follow, Nomination, Player, Vote
from tests.builders import make_user

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def nomination(db: None) -> Nomination:
    nominator = make_user()
    player = Player.objects.create(
        name="Lee Runner",
        age=15,
        position="Wing",
        nationality="Ireland",
        club="Rovers",
        sport="soccer",
        normalized_identity="lee runner|soccer|2011|rovers",
    )
    return Nomination.objects.create(player=player, nominated_by=nominator, sport="soccer")


def test_a_second_vote_by_the_same_user_is_refused_by_the_database(nomination: Nomination) -> None:
    voter = make_user()
    Vote.objects.create(nomination=nomination, user=voter)
    with pytest.raises(IntegrityError), transaction.atomic():
        Vote.objects.create(nomination=nomination, user=voter)
    assert Vote.objects.filter(nomination=nomination).count() == 1


def test_a_follow_with_two_targets_is_refused(nomination: Nomination) -> None:
    follower, followed = make_user(), make_user()
    with pytest.raises(IntegrityError), transaction.atomic():
        Follow.objects.create(
            follower=follower, followed_user=followed, followed_player=nomination.player
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        Follow.objects.create(follower=follower)
    Follow.objects.create(follower=follower, followed_player=nomination.player)
    with pytest.raises(IntegrityError), transaction.atomic():
        Follow.objects.create(follower=follower, followed_player=nomination.player)


def test_enumerations_are_enforced_by_check_constraints(nomination: Nomination) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Nomination.objects.filter(pk=nomination.pk).update(status="maybe")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.filter(pk=nomination.player_id).update(sport="chess")
    user = make_user()
    with pytest.raises(IntegrityError), transaction.atomic():
        type(user).objects.filter(pk=user.pk).update(role="overlord")


def test_every_user_gets_a_settings_row(db: None) -> None:
    user = make_user()
    assert user.settings.profile_visibility == "public"
    assert user.settings.allow_discoverability is True
    assert user.referral_code


@pytest.mark.django_db
def test_spa_fallback_serves_index_for_client_routes() -> None:
    response = Client().get("/nominations/5")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert b'id="root"' in response.content
    assert "csrftoken" in response.cookies


@pytest.mark.django_db
def test_unknown_api_paths_answer_a_json_404() -> None:
    response = Client().get("/api/nope")
    assert response.status_code == 404
    body = response.json()
    assert body["code"] == "not_found"
    assert "/api/nope" in body["message"]


@pytest.mark.django_db
def test_signed_out_me_answers_401_with_the_error_body() -> None:
    response = Client().get("/api/auth/me")
    assert response.status_code == 401
    assert response.json() == {"message": "Authentication required", "code": "not_authenticated"}


def test_check_deploy_is_clean_under_production_settings(tmp_path: Path) -> None:
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DJANGO_ENV": "production",
        "DJANGO_SECRET_KEY": "p" * 20 + "-a-long-random-production-secret-" + "q" * 20,
        "DJANGO_ALLOWED_HOSTS": "scouting.example.com",
        "PUBLIC_BASE_URL": "https://scouting.example.com",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret() -> None:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SECRET_KEY"}
    env["DJANGO_ENV"] = "production"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


@pytest.mark.django_db
def test_production_responses_carry_the_security_headers(settings: object) -> None:
    response = Client().get("/api/auth/me")
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert "default-src 'self'" in response["Content-Security-Policy"]
    assert response["X-Content-Type-Options"] == "nosniff"
