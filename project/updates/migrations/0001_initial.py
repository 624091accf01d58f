# player_update moves here from scouting (its table is renamed, its rows kept) and gains its
# review: a status, the checked image, the admin's decision.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('scouting', '0009_player_update_moves_to_updates'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='PlayerUpdate',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('title', models.CharField(max_length=200)),
                        ('content', models.TextField(blank=True, default='')),
                        ('media_url', models.CharField(blank=True, default='', max_length=500)),
                        ('milestone', models.BooleanField(default=False)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='updates', to='scouting.player')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='player_updates', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={'db_table': 'scouting_playerupdate'},
                ),
            ],
            database_operations=[],
        ),
        migrations.AlterModelTable(name='playerupdate', table=None),
        migrations.AddField(
            model_name='playerupdate',
            name='image_key',
            field=models.CharField(blank=True, default='', max_length=200),
        ),
        migrations.AddField(
            model_name='playerupdate',
            name='image_type',
            field=models.CharField(blank=True, default='', max_length=32),
        ),
        migrations.AddField(
            model_name='playerupdate',
            name='status',
            field=models.CharField(choices=[('pending', 'Pending'), ('published', 'Published'), ('rejected', 'Rejected')], default='published', max_length=16),
        ),
        migrations.AddField(
            model_name='playerupdate',
            name='decided_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='player_updates_decided', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='playerupdate',
            name='decided_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='playerupdate',
            name='decision_reason',
            field=models.TextField(blank=True, default=''),
        ),
        migrations.AddConstraint(
            model_name='playerupdate',
            constraint=models.CheckConstraint(condition=models.Q(('status__in', ['pending', 'published', 'rejected'])), name='player_update_status_valid'),
        ),
        migrations.AddIndex(
            model_name='playerupdate',
            index=models.Index(fields=['player', 'status', 'created_at'], name='player_update_timeline'),
        ),
        migrations.AddIndex(
            model_name='playerupdate',
            index=models.Index(fields=['status', 'created_at'], name='player_update_queue'),
        ),
    ]
