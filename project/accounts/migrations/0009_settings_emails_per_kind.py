from django.db import migrations, models
from django.db.models import F


def emails_as_before(apps, schema_editor):
    """A member who had turned a kind off heard of it by no channel, email included: their
    email switch of that kind starts off too."""
    UserSettings = apps.get_model("accounts", "UserSettings")
    UserSettings.objects.update(
        vote_emails=F("vote_notifications"), nomination_emails=F("nomination_notifications")
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0008_name_keys_with_symbols"),
    ]

    operations = [
        migrations.AddField(
            model_name="usersettings",
            name="vote_emails",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="usersettings",
            name="nomination_emails",
            field=models.BooleanField(default=True),
        ),
        migrations.RunPython(emails_as_before, migrations.RunPython.noop),
    ]
