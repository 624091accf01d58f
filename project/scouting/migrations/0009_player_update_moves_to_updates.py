# The player_update model moves to project/updates, which renames its table; nothing here
# touches the database.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('scouting', '0008_search_keys_with_symbols'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='PlayerUpdate')],
            database_operations=[],
        ),
    ]
