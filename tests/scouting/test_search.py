"""Search folds case, accents and punctuation the same way on SQLite and PostgreSQL: the
services keep folded keys and the query is folded by the same function."""

from __future__ import annotations

from importlib import import_module
from typing import Any
from urllib.parse import urlencode

import pytest
from django.apps import apps as current_apps
from django.db import connection
from django.test.utils import CaptureQueriesContext

from project.accounts.models import User
from project.common.text import fold
from project.scouting.models import Player
from project.scouting.services.nominations import player_identity
from tests.builders import make_nomination
from tests.helpers import ApiClient

pytestmark = pytest.mark.django_db


def found(api: ApiClient, text: str) -> list[int]:
    response = api.get(f"/api/nominations?{urlencode({'q': text})}")
    assert response.status_code == 200, response.content
    return [item["id"] for item in response.json()]


def test_fold_is_one_rule_for_search_and_identity() -> None:
    assert fold(" Zoë Müller-Ñúñez ") == "zoe muller nunez"
    assert fold("ZOË MÜLLER ÑÚÑEZ") == "zoe muller nunez"
    assert fold("Straße İstanbul ǰ") == "strasse istanbul j"
    assert fold("\uff26\uff55\uff4c\uff4c \uff57\uff49\uff44\uff54\uff48") == "full width"
    assert fold("Łukasz Søren O\u2019Brien-d'Arc") == "lukasz soren obrien darc"


def test_fold_keeps_symbols_as_words_for_search_and_leaves_them_out_of_identity() -> None:
    # The same cases as frontend/src/lib/fold.test.ts.
    assert fold("⚽") == "⚽"
    assert fold("Leo⚽Messi!") == "leo ⚽ messi"
    assert fold("👍🏽 ❤\ufe0f") == "👍 ❤"  # skin tone and variation selector left out
    assert fold("!!! _ ...") == ""
    assert fold("Leo ⚽ Messi", symbols=False) == "leo messi"


def test_an_emoji_alone_finds_the_names_that_hold_it(
    scout_api: ApiClient, other_scout: User
) -> None:
    ball = make_nomination(other_scout, name="Kai ⚽ Tanaka")
    heart = make_nomination(other_scout, name="Mia Rossi", club="FC ❤\ufe0f")
    make_nomination(other_scout, name="Plain Name")
    other_scout.name = "Scout 👍🏽"
    other_scout.save()
    assert found(scout_api, "⚽") == [ball.pk]
    assert found(scout_api, "❤️") == [heart.pk]
    assert sorted(found(scout_api, "👍")) == sorted([n.pk for n in other_scout.nominations.all()])
    assert found(scout_api, "⚽⚽") == []


def test_a_player_with_an_emoji_is_the_same_player_without_it() -> None:
    def identity(name: str) -> str:
        return player_identity(
            name=name, sport="football", club="FC", age=None, graduation_year=2012
        )

    assert identity("Leo ⚽") == identity("leo")


@pytest.mark.parametrize(
    "text",
    ["zoë", "ZOË", "Zoe", "MÜLLER", "müller", "ñúñez", "NUNEZ", "Müller-Ñúñez", "zoe muller"],
)
def test_a_name_is_found_in_any_case_with_or_without_accents(
    scout_api: ApiClient, other_scout: User, text: str
) -> None:
    zoe = make_nomination(other_scout, name="Zoë Müller-Ñúñez")
    make_nomination(other_scout, name="Someone Else")
    assert found(scout_api, text) == [zoe.pk]


def test_every_searched_field_folds(scout_api: ApiClient, other_scout: User) -> None:
    other_scout.name = "Åsa Öberg"
    other_scout.save()
    nomination = make_nomination(
        other_scout, position="Défenseur Central", nationality="Côte d'Ivoire", club="Atlético Ñ"
    )
    for text in ("ÉFENSEUR", "cote d'IVOIRE", "cote divoire", "ATLETICO", "asa oberg", "ÖBERG"):
        assert found(scout_api, text) == [nomination.pk], text


def test_a_search_stays_within_one_field(scout_api: ApiClient, other_scout: User) -> None:
    make_nomination(other_scout, name="Ana Lima", position="Guard", club="Toronto Academy")
    assert found(scout_api, "lima guard") == []
    assert found(scout_api, "!!!") == []


def test_a_renamed_nominator_and_an_edited_player_are_found_by_their_new_names(
    scout: User, scout_api: ApiClient
) -> None:
    nomination = make_nomination(scout, name="First Name")
    assert scout_api.put("/api/profile", {"name": "Ñandú Ólafsdóttir"}).status_code == 200
    assert found(scout_api, "OLAFSDOTTIR") == [nomination.pk]
    body = {
        "name": "Łukasz Żółw",
        "age": 15,
        "position": "Guard",
        "nationality": "Poland",
        "club": "Kraków",
        "sport": "football",
    }
    assert scout_api.put(f"/api/players/{nomination.player_id}", body).status_code == 200
    assert found(scout_api, "zolw") == [nomination.pk]
    assert found(scout_api, "KRAKOW") == [nomination.pk]
    assert found(scout_api, "first name") == []


def test_search_costs_the_same_queries_whatever_the_count(
    scout_api: ApiClient, other_scout: User
) -> None:
    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            found(scout_api, "ÉLAN")
        return len(queries)

    for n in range(3):
        make_nomination(other_scout, name=f"Élan {n}")
    few = count()
    for n in range(20):
        make_nomination(other_scout, name=f"Élan {n + 3}")
    assert count() == few


def test_the_migrations_fill_the_keys_of_existing_rows(other_scout: User) -> None:
    nomination = make_nomination(other_scout, name="Zoë Müller-Ñúñez", club="Atlético")
    other_scout.name = "Åsa Öberg"
    other_scout.save()
    Player.objects.update(search_key="")
    User.objects.update(name_key="")
    fill_players: Any = import_module("project.scouting.migrations.0006_search_keys")
    fill_users: Any = import_module("project.accounts.migrations.0006_search_keys")
    fill_players.fill_search_keys(current_apps, None)
    fill_users.fill_name_keys(current_apps, None)
    player = Player.objects.get(pk=nomination.player_id)
    assert player.search_key == "zoe muller nunez|guard|canada|atletico"
    assert User.objects.get(pk=other_scout.pk).name_key == "asa oberg"


def test_the_migrations_add_symbols_to_the_keys_of_existing_rows(other_scout: User) -> None:
    nomination = make_nomination(other_scout, name="Kai ⚽ Tanaka", club="Atlético")
    other_scout.name = "Åsa 👍"
    other_scout.save()
    Player.objects.update(search_key="kai tanaka|guard|canada|atletico")
    User.objects.update(name_key="asa")
    fill_players: Any = import_module("project.scouting.migrations.0008_search_keys_with_symbols")
    fill_users: Any = import_module("project.accounts.migrations.0008_name_keys_with_symbols")
    fill_players.refill_search_keys(current_apps, None)
    fill_users.refill_name_keys(current_apps, None)
    player = Player.objects.get(pk=nomination.player_id)
    assert player.search_key == "kai ⚽ tanaka|guard|canada|atletico"
    assert User.objects.get(pk=other_scout.pk).name_key == "asa 👍"
