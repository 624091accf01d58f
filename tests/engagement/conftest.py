from __future__ import annotations

import pytest

from project.accounts.models import User
from project.engagement.models import EngagementSettings
from tests.builders import make_user


def with_quests(user: User) -> User:
    EngagementSettings.objects.update_or_create(user_id=user.pk, defaults={"quests": True})
    return user


@pytest.fixture
def adult(db: None) -> User:
    return with_quests(make_user(name="Ada Adult", birth_year=1990))
