"""A deleted account's avatar stops being served, and its objects go with it."""

from __future__ import annotations

from typing import Any

import pytest

from project.accounts.models import User
from project.media.models import AvatarUpload
from tests.helpers import ApiClient, run_tasks
from tests.media.conftest import Upload, png_bytes
from tests.media.test_avatar_upload import capture, upload_avatar

pytestmark = pytest.mark.django_db

__all__ = ["capture"]  # the fixture, imported for this module's tests


def test_deleting_the_account_deletes_its_avatar_object(
    scout_api: ApiClient, scout: User, backend: Upload, capture: Any
) -> None:
    avatar_url = upload_avatar(scout_api, backend, capture, png_bytes())
    assert backend.fetch(avatar_url)[0] == 200

    with capture(execute=True):
        assert scout_api.delete("/api/settings/account").status_code == 204

    # Not served any more; the worker's task, enqueued with the deletion, leaves no object
    # behind (no purge needed).
    assert backend.fetch(avatar_url)[0] == 404
    assert backend.keys() != []
    run_tasks()
    assert backend.keys() == []
    assert not AvatarUpload.objects.exists()


def test_a_deleted_accounts_avatar_is_not_served_even_before_its_object_goes(
    scout_api: ApiClient, scout: User, backend: Upload, capture: Any
) -> None:
    avatar_url = upload_avatar(scout_api, backend, capture, png_bytes())
    # The deletion commits, but its after-commit cleanup has not run (or the storage failed).
    with capture(execute=False):
        assert scout_api.delete("/api/settings/account").status_code == 204
    assert backend.fetch(avatar_url)[0] == 404
