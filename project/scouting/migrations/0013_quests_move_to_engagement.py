# The quest tables move to project/engagement (its 0001 creates and seeds them); nothing ever
# wrote these.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("scouting", "0012_clubs_keys_and_links"),
    ]

    operations = [
        migrations.DeleteModel(name="UserQuest"),
        migrations.DeleteModel(name="Quest"),
    ]
