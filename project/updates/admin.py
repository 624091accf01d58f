from django.contrib import admin

from project.updates import models


@admin.register(models.PlayerUpdate)
class PlayerUpdateAdmin(admin.ModelAdmin):
    list_display = ("title", "player", "user", "status", "milestone", "created_at")
    list_filter = ("status", "milestone")
    raw_id_fields = ("player", "user", "decided_by")
