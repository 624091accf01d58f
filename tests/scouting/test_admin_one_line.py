"""The Django admin's player, club and user forms refuse line breaks, tabs and other control
characters in names, as the API does."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.db.models import Model
from django.forms.models import model_to_dict
from django.test import RequestFactory

from project.accounts.models import Role, User
from project.scouting.models import Player
from tests.builders import make_nomination, make_user

pytestmark = pytest.mark.django_db

MESSAGE = "may not contain line breaks, tabs or other control characters"


def admin_form(instance: Model, superuser: User, **changes: Any) -> Any:
    """The admin's change form of ``instance``, bound to its current values and ``changes``."""
    request = RequestFactory().get("/")
    request.user = superuser
    model_admin = admin.site._registry[type(instance)]
    form_class = model_admin.get_form(request, instance, change=True)
    data = {k: v for k, v in model_to_dict(instance).items() if v is not None}
    data.update(changes)
    return form_class(data=data, instance=instance)


@pytest.fixture
def superuser() -> User:
    user = make_user(role=Role.ADMIN, username="root")
    User.objects.filter(pk=user.pk).update(is_staff=True, is_superuser=True)
    user.refresh_from_db()
    return user


def test_the_player_form_refuses_control_characters(superuser: User) -> None:
    player = make_nomination(make_user(username="nora"), name="Pia Player").player
    assert isinstance(player, Player)
    form = admin_form(player, superuser, name="Pia\r\nPlayer", club="FC\tTab")
    assert not form.is_valid()
    assert form.errors["name"] == [f"Name {MESSAGE}"]
    assert form.errors["club"] == [f"Club {MESSAGE}"]
    assert admin_form(player, superuser, name="Pia Player-Smith").is_valid()


def test_the_user_form_refuses_control_characters(superuser: User) -> None:
    member = make_user(username="member", name="Mo Member")
    form = admin_form(member, superuser, name="Mo\nMember")
    assert not form.is_valid()
    assert form.errors["name"] == [f"Name {MESSAGE}"]
