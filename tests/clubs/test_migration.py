"""The data migration that gives existing players' typed clubs their records."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.builders import make_user

BEFORE = ("scouting", "0011_comments_move_out_and_count")
AFTER = ("scouting", "0012_clubs_keys_and_links")


@pytest.mark.django_db(transaction=True)
def test_existing_players_are_linked_to_one_record_per_folded_club_and_sport() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    old = executor.loader.project_state([BEFORE]).apps
    Player = old.get_model("scouting", "Player")
    Club = old.get_model("scouting", "Club")
    kept = Club.objects.create(name="Vitória SC", sport="soccer")
    made: dict[str, int] = {}
    for name, club, sport in [
        ("A", "FC Porto", "soccer"),
        ("B", "F.C. Porto", "soccer"),
        ("C", "fc  porto", "soccer"),
        ("D", "FC Porto", "hockey"),
        ("E", "Vitoria S.C.", "soccer"),
        ("F", "!!", "soccer"),
    ]:
        made[name] = Player.objects.create(
            name=name, club=club, sport=sport, position="P", nationality="N"
        ).pk
    make_user()  # the migration touches no other table's rows

    executor = MigrationExecutor(connection)
    executor.migrate([AFTER])
    new = executor.loader.project_state([AFTER]).apps
    Player = new.get_model("scouting", "Player")
    Club = new.get_model("scouting", "Club")
    links = dict(Player.objects.values_list("name", "club_ref_id"))
    assert links["A"] == links["B"] == links["C"]
    assert Club.objects.get(pk=links["A"]).name == "FC Porto"
    assert Club.objects.get(pk=links["D"]).sport == "hockey" and links["D"] != links["A"]
    # An existing record is found, not made again; a name of no letter has none.
    assert links["E"] == kept.pk and links["F"] is None
    assert Club.objects.get(pk=kept.pk).name_key == "vitoriasc"
    assert Club.objects.count() == 3

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
