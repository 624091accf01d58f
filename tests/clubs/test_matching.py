"""Club matching on real club names as people type them, in several languages: which
variants find the same record (the search's fold: case, accents, punctuation, spacing aside)
and which do not (abbreviations, translations, transliterations, age groups), reported in
docs/decisions.md#club-matching."""

from __future__ import annotations

import pytest

from project.clubs.matching import club_key
from project.clubs.models import ClubAlias
from project.clubs.selectors import club_suggestions
from project.clubs.services import club_for
from project.scouting.models import Club, Player
from tests.builders import make_nomination, make_user

# (language, the club's name, variants typed that find it)
MATCHES = [
    ("Portuguese", "FC Porto", ["F.C. Porto", "fc porto", "FC  PORTO", "F. C. Porto"]),
    ("Portuguese", "Vitória de Guimarães", ["Vitoria de Guimaraes", "VITÓRIA DE GUIMARÃES"]),
    ("Portuguese", "Vitória SC", ["Vitoria S.C.", "vitória sc"]),
    ("Spanish", "Atlético de Madrid", ["Atletico de Madrid", "ATLÉTICO DE MADRID"]),
    ("Spanish", "Real Betis Balompié", ["Real Betis Balompie", "real betis balompié"]),
    ("Spanish", "CD Leganés", ["C.D. Leganés", "CD Leganes", "c.d. leganes"]),
    ("Spanish", "Deportivo Alavés", ["Deportivo Alaves", "Deportivo  Alavés"]),
    ("German", "1. FC Köln", ["1 FC Koln", "1.FC Köln", "1. FC KÖLN"]),
    (
        "German",
        "Borussia Mönchengladbach",
        ["Borussia Monchengladbach", "borussia mönchengladbach"],
    ),
    ("German", "FC Bayern München", ["FC Bayern Munchen", "F.C. Bayern München"]),
    ("French", "AS Saint-Étienne", ["AS Saint Etienne", "A.S. Saint-Étienne", "as saint-etienne"]),
    ("French", "Stade Rennais FC", ["Stade Rennais F.C.", "stade rennais fc"]),
    ("Polish", "Górnik Zabrze", ["Gornik Zabrze", "GÓRNIK ZABRZE"]),
    ("Polish", "ŁKS Łódź", ["LKS Lodz", "Łks łódź"]),
    ("Turkish", "Beşiktaş JK", ["Besiktas JK", "Beşiktaş J.K."]),
    ("Swedish", "Malmö FF", ["Malmo FF", "Malmö F.F."]),
    ("Danish", "Brøndby IF", ["Brondby IF", "Brøndby I.F."]),
    ("Icelandic", "Þór Akureyri", ["Thor Akureyri", "þór akureyri"]),
    ("Irish", "St Patrick's Athletic", ["St Patricks Athletic", "St. Patrick\u2019s Athletic"]),
]

# Variants the fold does not join: admins merge them (their names then find the kept club).
MISSES = [
    ("Portuguese", "FC Porto", "Porto"),
    ("Portuguese", "FC Porto", "FC Porto U15"),
    ("Portuguese", "SL Benfica", "Sport Lisboa e Benfica"),
    ("Spanish", "Atlético de Madrid", "Atlético Madrid"),
    ("Spanish", "Real Betis Balompié", "Betis"),
    ("German", "1. FC Köln", "1. FC Koeln"),
    ("German", "Borussia Mönchengladbach", "Gladbach"),
    ("German", "FC Bayern München", "Bayern Munich"),
    ("French", "AS Saint-Étienne", "ASSE"),
    ("Swedish", "Malmö FF", "Malmoe FF"),
    ("Danish", "Brøndby IF", "Broendby IF"),
    ("Italian", "AC Milan", "Associazione Calcio Milan"),
]


@pytest.mark.parametrize(("language", "name", "variants"), MATCHES)
def test_variants_fold_to_the_clubs_key(language: str, name: str, variants: list[str]) -> None:
    for variant in variants:
        assert club_key(variant) == club_key(name), f"{language}: {variant!r} vs {name!r}"


@pytest.mark.parametrize(("language", "name", "variant"), MISSES)
def test_the_fold_does_not_join_abbreviations_or_translations(
    language: str, name: str, variant: str
) -> None:
    assert club_key(variant) != club_key(name), f"{language}: {variant!r} now matches {name!r}"


@pytest.mark.django_db
def test_every_variant_finds_one_record_and_suggests_it() -> None:
    for _, name, variants in MATCHES:
        club = club_for(name=name, sport="soccer")
        assert club is not None
        for variant in variants:
            found = club_for(name=variant, sport="soccer")
            assert found is not None and found.pk == club.pk, variant
            # The suggestions find it as the name is typed (any part of it, folded).
            assert club.pk in [c.pk for c in club_suggestions(sport="soccer", q=variant)]
    assert Club.objects.count() == len(MATCHES)
    # The same name in another sport is another club.
    hockey = club_for(name="FC Porto", sport="hockey")
    assert hockey is not None and hockey.sport == "hockey"
    assert Club.objects.filter(name_key=club_key("FC Porto")).count() == 2


@pytest.mark.django_db
def test_suggestions_find_a_club_from_part_of_its_name_in_the_sport() -> None:
    porto = club_for(name="FC Porto", sport="soccer")
    club_for(name="Porto Alegre", sport="hockey")
    assert porto is not None
    assert [c.pk for c in club_suggestions(sport="soccer", q="port")] == [porto.pk]
    assert club_suggestions(sport="soccer", q="!!") == []


@pytest.mark.django_db
def test_nominating_and_editing_link_the_player_to_the_record() -> None:
    first = make_nomination(club="FC Porto", sport="soccer")
    second = make_nomination(club="F.C. Porto", sport="soccer")
    third = make_nomination(club="Brand New Academy", sport="soccer")
    players = {p.pk: p for p in Player.objects.all()}
    porto = Club.objects.get(name="FC Porto")
    assert players[first.player_id].club_ref_id == porto.pk
    assert players[second.player_id].club_ref_id == porto.pk
    # Free text still works: the typed text stays the player's, an unknown club is made.
    assert players[second.player_id].club == "F.C. Porto"
    new = Club.objects.get(name="Brand New Academy")
    assert (new.sport, players[third.player_id].club_ref_id) == ("soccer", new.pk)

    from project.scouting.services.nominations import player_update

    player = players[third.player_id]
    player_update(
        user=third.nominated_by,
        player_id=player.pk,
        name=player.name,
        age=player.age,
        graduation_year=None,
        position=player.position,
        nationality=player.nationality,
        club="fc porto",
        sport="soccer",
    )
    player.refresh_from_db()
    assert player.club_ref_id == porto.pk
    assert player.club == "fc porto"


@pytest.mark.django_db
def test_a_merged_name_keeps_finding_the_kept_club() -> None:
    admin = make_user(role="admin")
    kept = club_for(name="FC Porto", sport="soccer")
    duplicate = club_for(name="Porto", sport="soccer")
    assert kept is not None and duplicate is not None and kept.pk != duplicate.pk
    from project.clubs.services import club_merge

    club_merge(admin=admin, keep_id=kept.pk, merge_ids=[duplicate.pk])
    assert ClubAlias.objects.get(key="porto").club_id == kept.pk
    again = club_for(name="PORTO", sport="soccer")
    assert again is not None and again.pk == kept.pk
    nomination = make_nomination(club="Porto", sport="soccer")
    assert Player.objects.get(pk=nomination.player_id).club_ref_id == kept.pk
