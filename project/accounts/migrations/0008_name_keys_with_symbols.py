from django.db import migrations

from project.common.text import fold


def refill_name_keys(apps, schema_editor):
    """The accounts whose name holds a symbol (an emoji) get it in their folded name, as
    ``fold`` now keeps it; other keys are already what ``fold`` gives."""
    User = apps.get_model("accounts", "User")
    batch = []
    for user in User.objects.only("pk", "name", "name_key").iterator(chunk_size=2_000):
        key = fold(user.name)
        if key != user.name_key:
            user.name_key = key
            batch.append(user)
        if len(batch) == 2_000:
            User.objects.bulk_update(batch, ["name_key"])
            batch = []
    User.objects.bulk_update(batch, ["name_key"])


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0007_settings_weekly_digest"),
    ]

    operations = [
        migrations.RunPython(refill_name_keys, migrations.RunPython.noop, elidable=True),
    ]
