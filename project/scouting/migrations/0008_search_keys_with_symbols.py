from django.db import migrations

from project.common.text import fold

SEARCHED = ("name", "position", "nationality", "club")


def refill_search_keys(apps, schema_editor):
    """The players whose searched fields hold a symbol (an emoji) get it in their search key,
    as ``fold`` now keeps it; other keys are already what ``fold`` gives."""
    Player = apps.get_model("scouting", "Player")
    batch = []
    for player in Player.objects.only("pk", "search_key", *SEARCHED).iterator(chunk_size=2_000):
        key = "|".join(fold(getattr(player, field)) for field in SEARCHED)
        if key != player.search_key:
            player.search_key = key
            batch.append(player)
        if len(batch) == 2_000:
            Player.objects.bulk_update(batch, ["search_key"])
            batch = []
    Player.objects.bulk_update(batch, ["search_key"])


class Migration(migrations.Migration):

    dependencies = [
        ("scouting", "0007_player_under_review"),
    ]

    operations = [
        migrations.RunPython(refill_search_keys, migrations.RunPython.noop, elidable=True),
    ]
