import project.accounts.models
from django.db import migrations, models


def fill_username_skeletons(apps, schema_editor):
    """Existing accounts get their skeleton; when two old names look alike, the older
    account keeps it (the other keeps its name and signs in as before)."""
    User = apps.get_model("accounts", "User")
    taken = set()
    for pk, username in User.objects.order_by("pk").values_list("pk", "username"):
        skeleton = project.accounts.models.username_skeleton(username)
        if skeleton in taken:
            continue
        taken.add(skeleton)
        User.objects.filter(pk=pk).update(username_skeleton=skeleton)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0004_two_factor"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_skeleton",
            field=models.TextField(editable=False, null=True, unique=True),
        ),
        migrations.RunPython(fill_username_skeletons, migrations.RunPython.noop),
    ]
