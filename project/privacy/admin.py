from django.contrib import admin

from project.privacy import models


@admin.register(models.PlayerControls)
class PlayerControlsAdmin(admin.ModelAdmin):
    list_display = ("player", "relationship", "hide_club", "share_card", "voting_open")
    raw_id_fields = ("player",)
