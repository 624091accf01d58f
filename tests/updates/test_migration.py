"""The player_update rows written while the model lived in scouting move with it to
project/updates, published."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from project.updates.models import PlayerUpdate, UpdateStatus
from tests.builders import make_nomination, make_user

SCOUTING_BEFORE = ("scouting", "0008_search_keys_with_symbols")
BEFORE: list[tuple[str, str | None]] = [("updates", None), SCOUTING_BEFORE]


@pytest.mark.django_db(transaction=True)
def test_updates_written_in_scouting_keep_their_rows_in_updates() -> None:
    author = make_user()
    nomination = make_nomination(author)
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(SCOUTING_BEFORE).apps.get_model("scouting", "PlayerUpdate")
    old.objects.create(
        player_id=nomination.player_id, user_id=author.pk, title="Signed for the academy"
    )

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    moved = PlayerUpdate.objects.get()
    assert (moved.title, moved.player_id, moved.user_id) == (
        "Signed for the academy",
        nomination.player_id,
        author.pk,
    )
    assert moved.status == UpdateStatus.PUBLISHED
