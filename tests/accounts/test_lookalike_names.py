"""User names that look like another's in a different script or with look-alike characters
(Unicode's confusables, UTS #39 skeletons) are refused at registration and in the Django
admin's "add user", as names that differ only by case or compatibility form are."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from project.accounts.models import User, username_skeleton
from tests.builders import make_user
from tests.helpers import ApiClient, assert_error

pytestmark = pytest.mark.django_db


def register(username: str, name: str = "N") -> Any:
    body = {
        "username": username,
        "password": "secret-pass",
        "name": name,
        "email": f"u{abs(hash(username))}@example.com",
        "birthYear": 1990,
    }
    return ApiClient().post("/api/auth/register", body)


@pytest.mark.parametrize(
    ("existing", "lookalike"),
    [
        ("admin", "\u0430dmin"),  # Cyrillic a
        ("admin", "\u0391DMIN"),  # Greek capital alpha
        ("admin", "adrnin"),  # r n for m
        ("scout14", "\u0455cout14"),  # Cyrillic dze
        ("scout14", "scoutl4"),  # l for 1
        ("admin1", "ADMINL"),  # L for 1, in capitals
        ("user0", "user\u03bf"),  # Greek omicron for 0
    ],
)
def test_a_lookalike_of_an_existing_name_is_refused(existing: str, lookalike: str) -> None:
    make_user(username=existing)
    response = register(lookalike, name="Admin")
    body = assert_error(response, 409, "Username is already taken")
    assert body["code"] == "username_taken"
    assert body["fields"] == {"username": "Username is already taken"}
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    ("first", "second"), [("anna", "ann"), ("zoe", "zo\u00eb"), ("scout1", "scout2")]
)
def test_names_that_only_resemble_each_other_are_both_accepted(first: str, second: str) -> None:
    assert register(first).status_code == 201
    assert register(second).status_code == 201
    assert User.objects.count() == 2


def test_a_new_account_keeps_its_skeleton() -> None:
    user = make_user(username="\u0430dmin")
    user.refresh_from_db()
    assert user.username_skeleton == username_skeleton("admin")


def test_the_django_admin_refuses_a_lookalike_new_user_name(admin_user: User) -> None:
    make_user(username="admin7")
    User.objects.filter(pk=admin_user.pk).update(is_superuser=True)
    client = Client()
    client.force_login(admin_user)
    response = client.post(
        "/admin-django/accounts/user/add/",
        {
            "username": "\u0430dmin7",
            "password1": "a-long-pass-1",
            "password2": "a-long-pass-1",
            "usable_password": "true",
        },
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {"username": ["Username is already taken"]}
    assert User.objects.filter(username="\u0430dmin7").count() == 0
