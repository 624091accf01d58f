# The quest tables move to project/engagement (its 0001 creates and seeds them); nothing ever
# wrote these.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("scouting", "0008_search_keys_with_symbols"),
    ]

    operations = [
        migrations.DeleteModel(name="UserQuest"),
        migrations.DeleteModel(name="Quest"),
    ]
